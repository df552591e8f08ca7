#include "install.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "binary_replacement.hpp"
#include "config_file_update.hpp"
#include "config_takeover.hpp"
#include "containerd_config_check.hpp"
#include "wincni/os/program_files.hpp"
#include "node_configs.hpp"
#include "replaced_binaries.hpp"
#include "wincni/cni/config_file_names.hpp"
#include "wincni/cni/plugin_path.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::installer {

namespace {

namespace private_files = os::private_files;
namespace program_files = os::program_files;

using cni::kExecutableSuffix;

// Every binary's new build, read once; all must be there before anything is
// touched.
std::vector<std::string> read_binaries(const std::string& source_dir, const std::vector<std::string>& binaries) {
  std::vector<std::string> contents;
  for (const std::string& binary : binaries) {
    auto content = private_files::read_file(private_files::join(source_dir, binary));
    if (!content) {
      throw std::runtime_error(
          fmt::format("{} is not in {}: run wincni-install from the release's bin folder or "
                      "name that folder with --source-dir",
                      binary, source_dir));
    }
    contents.push_back(std::move(*content));
  }
  return contents;
}

std::string describe(const BinaryChange& change) {
  switch (change.kind) {
    case BinaryChange::Kind::Unchanged:
      return fmt::format("{}: unchanged", change.path);
    case BinaryChange::Kind::Installed:
      return fmt::format("{}: installed", change.path);
    case BinaryChange::Kind::Replaced:
      return fmt::format("{}: replaced", change.path);
    case BinaryChange::Kind::ReplacedRunning:
      break;
  }
  return fmt::format("{}: replaced; the running one was moved to {} and is removed by a later run", change.path,
                     change.moved_aside_to);
}

void report_config(const std::string& dir, const std::string& name, bool written, os::ByteSink& report) {
  report.write(fmt::format("{}: {}\n", private_files::join(dir, name), written ? "written" : "unchanged"));
}

}  // namespace

std::vector<std::string> suite_binaries() {
  std::vector<std::string> names;
  for (const char* stem : {"flannel", "win-bridge", "win-overlay", "host-local", "hnsctl"}) {
    names.push_back(std::string(stem) + std::string(kExecutableSuffix));
  }
  return names;
}

std::string release_dir(const InstallOptions& options) {
  return options.source_dir.empty() ? program_files::own_directory() : options.source_dir;
}

void install(const InstallOptions& options, os::ByteSink& report) {
  const std::string source_dir = release_dir(options);
  const std::vector<std::string> binaries = suite_binaries();
  const std::vector<std::string> builds = read_binaries(source_dir, binaries);
  const std::string conflist = options.binaries_only ? std::string() : flannel_conflist(options.network);
  const bool with_net_conf = !options.binaries_only && !options.network.cluster_networks.empty();
  const std::string net_conf = !with_net_conf                               ? std::string()
                               : !options.network.flanneld_net_conf.empty() ? options.network.flanneld_net_conf
                                                                            : flanneld_net_conf(options.network);

  // The runtime starts what lands in these folders as root or SYSTEM: one
  // that others may write lets them put their own program in its place
  // (security review, finding 4). Refused before anything is written.
  for (const std::string* folder : {&options.bin_dir, &options.conf_dir, &options.flanneld_conf_dir}) {
    if (folder == &options.flanneld_conf_dir && !with_net_conf) continue;
    if (folder == &options.conf_dir && options.binaries_only) continue;
    private_files::require_administrators_only(*folder);
  }
  // A config that sorts before ours keeps the node on another plugin: the
  // run would succeed and change nothing that matters.
  const std::vector<std::string> earlier =
      options.binaries_only ? std::vector<std::string>() : configs_loaded_before(options.conf_dir, options.conf_name);
  if (!earlier.empty() && !options.take_over) {
    throw std::runtime_error(fmt::format(
        "{} in {} sorts before {}: the runtime loads the first config in name order, so pods would keep getting "
        "that one, not wincni. Nothing was changed. Run again with --take-over to move {} aside to {} "
        "(wincni-install --uninstall puts {} back), or remove {} yourself",
        fmt::join(earlier, ", "), options.conf_dir, options.conf_name, earlier.size() == 1 ? "it" : "them",
        private_files::join(options.conf_dir, kTakenOverFolder), earlier.size() == 1 ? "it" : "them",
        earlier.size() == 1 ? "it" : "them"));
  }
  check_take_over(options.conf_dir, earlier);
  const ContainerdConfigPlan containerd = plan_containerd_config(options);
  private_files::create_private_directories(options.bin_dir);
  for (const Leftover& leftover : remove_leftovers(options.bin_dir, binaries)) report.write(describe(leftover) + '\n');
  // Every copy of another project's plugin is made before anything is
  // replaced: a copy that cannot be made stops the run with nothing changed.
  for (size_t i = 0; i < binaries.size(); ++i) keep_replaced_binary(options.bin_dir, binaries[i], builds[i], report);
  for (size_t i = 0; i < binaries.size(); ++i) {
    report.write(describe(install_binary(builds[i], options.bin_dir, binaries[i])) + '\n');
  }

  if (options.binaries_only) {
    apply_containerd_config(containerd, report);
    return;
  }
  remove_leftovers(options.conf_dir, {options.conf_name});
  report_config(options.conf_dir, options.conf_name, update_config_file(options.conf_dir, options.conf_name, conflist),
                report);
  // Ours is in place first (it sorts after theirs, so nothing changes yet);
  // then theirs go, each in one rename.
  take_over(options.conf_dir, earlier, report);

  if (with_net_conf) {
    remove_leftovers(options.flanneld_conf_dir, {"net-conf.json"});
    report_config(options.flanneld_conf_dir, "net-conf.json",
                  update_config_file(options.flanneld_conf_dir, "net-conf.json", net_conf), report);
  }
  // Last: containerd then finds everything it is pointed at.
  apply_containerd_config(containerd, report);
}

}  // namespace wincni::installer
