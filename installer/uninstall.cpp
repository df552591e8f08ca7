#include "uninstall.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "binary_replacement.hpp"
#include "config_takeover.hpp"
#include "containerd_config_check.hpp"
#include "install.hpp"
#include "replaced_binaries.hpp"
#include "wincni/os/program_files.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::installer {

namespace {

namespace private_files = os::private_files;
namespace program_files = os::program_files;

void remove_binaries(const InstallOptions& options, os::ByteSink& report) {
  const std::string source_dir = release_dir(options);
  for (const std::string& binary : suite_binaries()) {
    const std::string path = private_files::join(options.bin_dir, binary);
    if (private_files::is_link(path)) {
      report.write(fmt::format("{}: kept: a link, not a file the installer wrote\n", path));
      continue;
    }
    const auto installed = private_files::is_regular_file(path) ? private_files::read_file(path) : std::nullopt;
    if (!installed) continue;
    const auto release = private_files::read_file(private_files::join(source_dir, binary));
    if (!release || *release != *installed) {
      report.write(
          fmt::format("{}: kept: not the build beside this installer (run the installer of the release "
                      "that put it there, or remove it yourself)\n",
                      path));
      continue;
    }
    const program_files::Removal removal = program_files::remove_unless_busy(path);
    report.write(fmt::format(
        "{}: {}\n", path,
        removal == program_files::Removal::Busy ? "kept: running; run --uninstall again later" : "removed"));
  }
  for (const Leftover& leftover : remove_leftovers(options.bin_dir, suite_binaries())) {
    report.write(describe(leftover) + '\n');
  }
  for (const std::string& binary : suite_binaries()) restore_replaced_binary(options.bin_dir, binary, report);
}

void move_config_aside(const InstallOptions& options, os::ByteSink& report) {
  const std::string path = private_files::join(options.conf_dir, options.conf_name);
  if (!private_files::is_regular_file(path) && !private_files::is_link(path)) return;
  const std::string aside_dir = private_files::join(options.conf_dir, kUninstalledFolder);
  if (private_files::is_link(aside_dir)) {
    report.write(fmt::format("{}: kept: {} is a link, never moved through\n", path, aside_dir));
    return;
  }
  private_files::create_private_directories(aside_dir);
  // An earlier uninstall's copy (perhaps with the operator's edits) stays:
  // this one takes the first free name.
  std::string aside = private_files::join(aside_dir, options.conf_name);
  for (int copy = 1; private_files::is_regular_file(aside) || private_files::is_link(aside); ++copy) {
    aside = private_files::join(aside_dir, fmt::format("{}.{}", options.conf_name, copy));
  }
  private_files::move_over(path, aside);
  report.write(fmt::format("{}: moved aside to {}\n", path, aside));
}

void restore_taken_over(const InstallOptions& options, os::ByteSink& report) {
  const std::string kept_dir = private_files::join(options.conf_dir, kTakenOverFolder);
  if (!private_files::is_directory(kept_dir) || private_files::is_link(kept_dir)) return;
  for (const private_files::DirEntry& entry : private_files::list_directory(kept_dir)) {
    if (!entry.regular_file) continue;
    const std::string from = private_files::join(kept_dir, entry.name);
    const std::string to = private_files::join(options.conf_dir, entry.name);
    if (private_files::is_regular_file(to) || private_files::is_link(to) || private_files::is_directory(to)) {
      report.write(fmt::format("{}: kept: {} exists again; put one of them back by hand\n", from, to));
      continue;
    }
    private_files::move_over(from, to);
    report.write(fmt::format("{}: put back (from {})\n", to, kept_dir));
  }
}

}  // namespace

void uninstall(const InstallOptions& options, os::ByteSink& report) {
  // What --take-over moved comes back first (it sorts before ours, so it
  // takes effect at once); a failure then leaves ours in place, never a
  // folder without a config.
  if (private_files::is_directory(options.conf_dir)) {
    restore_taken_over(options, report);
    move_config_aside(options, report);
  }
  if (private_files::is_directory(options.bin_dir)) remove_binaries(options, report);
  restore_containerd_config(options, report);
  report.write(fmt::format("{}: left alone (flanneld may still read it), as are the HNS networks\n",
                           private_files::join(options.flanneld_conf_dir, "net-conf.json")));
}

}  // namespace wincni::installer
