#include "containerd_config_check.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "binary_replacement.hpp"
#include "install.hpp"
#include "wincni/cni/containerd_config.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::installer {

namespace {

namespace private_files = os::private_files;

// With --binaries-only the node's configs are someone else's (rke2's,
// k3s's): only where containerd finds plugins matters.
std::string checked_conf_dir(const InstallOptions& options) {
  return options.binaries_only ? std::string() : options.conf_dir;
}

std::string patch(std::string_view text, const InstallOptions& options) {
  return cni::patch_containerd_cni_folders(text, options.bin_dir, checked_conf_dir(options));
}

// "containerd looks in X before Y, and X holds flannel.exe, ...": a folder
// containerd searches before `bin_dir` that holds a plugin of a name the
// suite installs; "" when none does.
std::string shadowing(const std::vector<std::string>& bin_dirs, const std::string& bin_dir) {
  for (const std::string& dir : bin_dirs) {
    if (cni::same_folder(dir, bin_dir)) return "";
    std::vector<std::string> found;
    for (const std::string& binary : suite_binaries()) {
      if (private_files::is_regular_file(private_files::join(dir, binary))) found.push_back(binary);
    }
    if (!found.empty()) {
      return fmt::format("containerd looks for CNI plugins in {} before {}, and {} holds {}: pods would run those", dir,
                         bin_dir, dir, fmt::join(found, ", "));
    }
  }
  return "";
}

}  // namespace

ContainerdConfigPlan plan_containerd_config(const InstallOptions& options) {
  ContainerdConfigPlan plan;
  plan.path = options.containerd.config_file;
  if (plan.path.empty()) return plan;
  if (private_files::is_link(plan.path)) {
    throw std::runtime_error(fmt::format(
        "{} is a link: wincni reads and writes containerd's config only as a file; nothing was changed", plan.path));
  }
  plan.original = private_files::read_file(plan.path, cni::kMaxContainerdConfigBytes);
  if (!plan.original) {
    if (options.containerd.patch || options.containerd.config_file_given) {
      throw std::runtime_error(
          fmt::format("{} does not exist: nothing was changed. Name containerd's config file with --containerd-config "
                      "(containerd --config), or pass --containerd-config none to skip the check",
                      plan.path));
    }
    return plan;
  }
  cni::ContainerdCniSettings settings;
  try {
    settings = cni::read_containerd_cni_settings(*plan.original, options.containerd.builtin);
    plan.mismatches = cni::containerd_folder_mismatches(settings, options.bin_dir, checked_conf_dir(options));
    // containerd runs the first plugin of a name in its folders' order: one
    // of ours in a folder before ours is what pods would get.
    if (plan.mismatches.empty()) {
      if (std::string shadow = shadowing(settings.folders.bin_dirs, options.bin_dir); !shadow.empty()) {
        plan.mismatches.push_back(std::move(shadow));
      }
    }
    if (!plan.mismatches.empty() && options.containerd.patch) plan.patched = patch(*plan.original, options);
  } catch (const cni::ContainerdConfigError& error) {
    throw std::runtime_error(
        fmt::format("{}: {}. Nothing was changed: correct the file (containerd refuses it as well), or pass "
                    "--containerd-config none to skip the check",
                    plan.path, error.what()));
  }
  if (!plan.mismatches.empty() && !options.containerd.patch) {
    throw std::runtime_error(fmt::format(
        "{}: {}. Pods would not get wincni; nothing was changed. Run again with --patch-containerd-config to set "
        "the file's cni table (the file is kept as {}{}; restart containerd afterwards), or give --bin-dir and "
        "--conf-dir containerd's folders",
        plan.path, fmt::join(plan.mismatches, "; "), plan.path, kContainerdBackupSuffix));
  }
  return plan;
}

void apply_containerd_config(const ContainerdConfigPlan& plan, os::ByteSink& report) {
  if (plan.path.empty()) return;
  if (!plan.original) {
    report.write(fmt::format(
        "{}: not found, so not checked (containerd started without a config file reads CNI configs from its "
        "built-in folders; pass --containerd-config if it is started with another)\n",
        plan.path));
    return;
  }
  if (!plan.patched) {
    report.write(fmt::format("{}: containerd finds wincni's plugins and config\n", plan.path));
    return;
  }
  const private_files::FolderAndName where = private_files::split_last(plan.path);
  const std::string backup_name = where.name + kContainerdBackupSuffix;
  // An earlier patch's backup is the file as it was before wincni: kept.
  const bool backed_up =
      private_files::publish_file_exclusive(where.folder, backup_name, new_copy_name(backup_name), *plan.original);
  private_files::replace_file(where.folder, where.name, new_copy_name(where.name), *plan.patched);
  report.write(fmt::format("{}: patched: {} ({} {}); restart containerd for it to take effect\n", plan.path,
                           fmt::join(plan.mismatches, "; "),
                           backed_up ? "the file as it was is" : "an earlier backup is kept as",
                           private_files::join(where.folder, backup_name)));
}

void restore_containerd_config(const InstallOptions& options, os::ByteSink& report) {
  const std::string& path = options.containerd.config_file;
  if (path.empty()) return;
  const std::string backup = path + kContainerdBackupSuffix;
  if (private_files::is_link(backup) || private_files::is_link(path)) {
    report.write(fmt::format("{}: kept: a link, never restored through\n", backup));
    return;
  }
  const auto saved = private_files::read_file(backup, cni::kMaxContainerdConfigBytes);
  if (!saved) return;
  const auto current = private_files::read_file(path, cni::kMaxContainerdConfigBytes);
  // What an install made of the backup: with the config folder, or with the
  // bin folder alone (--binaries-only, which --uninstall is not told of).
  bool ours = false;
  try {
    ours = current && (*current == cni::patch_containerd_cni_folders(*saved, options.bin_dir, options.conf_dir) ||
                       *current == cni::patch_containerd_cni_folders(*saved, options.bin_dir, ""));
  } catch (const cni::ContainerdConfigError&) {
    ours = false;  // not ours to judge: left as it is below
  }
  if (!ours) {
    report.write(
        fmt::format("{}: kept: {} has changed since wincni patched it; compare the two and put back what you need\n",
                    backup, path));
    return;
  }
  private_files::move_over(backup, path);
  report.write(fmt::format("{}: put back (from {}); restart containerd for it to take effect\n", path, backup));
}

}  // namespace wincni::installer
