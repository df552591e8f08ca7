#include "doctor/containerd_survey.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "wincni/cni/build_identity.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/plugin_path.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::hnsctl::doctor {

namespace {

namespace files = os::private_files;

constexpr const char* kKind = "containerd";

}  // namespace

std::string containerd_config_option_default() {
  const std::string file = cni::containerd_default_config_file(cni::Environment::from_process());
  return file.empty() ? "none" : file;
}

std::vector<Leftover> survey_containerd(const std::string& config_file, bool named,
                                        const cni::ContainerdFolders& builtin, const std::string& conf_dir,
                                        const std::set<std::string>& plugins) {
  std::vector<Leftover> found;
  if (config_file.empty()) return found;
  std::optional<std::string> text;
  try {
    text = files::read_file(config_file, cni::kMaxContainerdConfigBytes);
  } catch (const std::exception& error) {
    found.push_back({kKind, config_file, fmt::format("cannot be read: {}", error.what()), {}, {}});
    return found;
  }
  if (!text) {
    if (!named) return found;
    found.push_back({kKind,
                     config_file,
                     fmt::format("not there: a containerd started without a config file reads CNI configs from {} "
                                 "and plugins from {} (give another file with --containerd-config)",
                                 builtin.conf_dir, fmt::join(builtin.bin_dirs, ", ")),
                     {},
                     {},
                     true});
    return found;
  }
  cni::ContainerdCniSettings settings;
  try {
    settings = cni::read_containerd_cni_settings(*text, builtin);
  } catch (const cni::ContainerdConfigError& error) {
    found.push_back({kKind, config_file, fmt::format("not readable as containerd's config: {}", error.what()), {}, {}});
    return found;
  }
  if (!cni::same_folder(settings.folders.conf_dir, conf_dir)) {
    found.push_back({kKind,
                     config_file,
                     fmt::format("containerd reads CNI configs from {} ({}), not from {}: pods do not get these "
                                 "configs (wincni-install --patch-containerd-config sets it; restart containerd)",
                                 settings.folders.conf_dir,
                                 settings.conf_dir_from_file ? settings.section + ".conf_dir"
                                                             : std::string("containerd's built-in default"),
                                 conf_dir),
                     {},
                     {}});
  }
  for (const std::string& plugin : plugins) {
    try {
      // containerd runs the first file of the name in its folders' order.
      const std::string found_file = cni::find_plugin(plugin, settings.folders.bin_dirs);
      const auto content = files::is_link(found_file) ? std::nullopt : files::read_file(found_file);
      if (content && !cni::is_wincni_build(*content)) {
        found.push_back({kKind,
                         config_file,
                         fmt::format("the configs name plugin \"{}\", and the first of that name in containerd's "
                                     "CNI bin folders ({}) is {}, which is not wincni's: pods run that one",
                                     plugin, fmt::join(settings.folders.bin_dirs, ", "), found_file),
                         {},
                         {}});
      }
    } catch (const cni::Error&) {
      found.push_back({kKind,
                       config_file,
                       fmt::format("the configs name plugin \"{}\", which is in none of containerd's CNI bin folders "
                                   "({}): ADD fails with \"failed to find plugin\"",
                                   plugin, fmt::join(settings.folders.bin_dirs, ", ")),
                       {},
                       {}});
    }
  }
  return found;
}

}  // namespace wincni::hnsctl::doctor
