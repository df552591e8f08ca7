#include "config_takeover.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "wincni/cni/config_file_names.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::installer {

namespace private_files = os::private_files;

std::vector<std::string> configs_loaded_before(const std::string& conf_dir, const std::string& conf_name) {
  std::vector<std::string> earlier;
  if (!private_files::is_directory(conf_dir)) return earlier;
  for (const private_files::DirEntry& entry : private_files::list_directory(conf_dir)) {
    const bool loaded_first = entry.regular_file && cni::is_config_file_name(entry.name) && entry.name < conf_name;
    if (loaded_first) earlier.push_back(entry.name);
  }
  std::sort(earlier.begin(), earlier.end());
  return earlier;
}

void check_take_over(const std::string& conf_dir, const std::vector<std::string>& names) {
  if (names.empty()) return;
  const std::string kept = private_files::join(conf_dir, kTakenOverFolder);
  if (private_files::is_link(kept)) {
    throw std::runtime_error(fmt::format("{} is a link: configs are never moved through one", kept));
  }
  for (const std::string& name : names) {
    if (private_files::is_regular_file(private_files::join(kept, name)) ||
        private_files::is_link(private_files::join(kept, name))) {
      throw std::runtime_error(
          fmt::format("{} is already in {} from an earlier take-over: move one of them by hand", name, kept));
    }
  }
}

void take_over(const std::string& conf_dir, const std::vector<std::string>& names, os::ByteSink& report) {
  check_take_over(conf_dir, names);
  if (names.empty()) return;
  const std::string kept = private_files::join(conf_dir, kTakenOverFolder);
  private_files::create_private_directories(kept);
  for (const std::string& name : names) {
    // A rename moves a link as itself, never what it leads to.
    private_files::move_over(private_files::join(conf_dir, name), private_files::join(kept, name));
    report.write(fmt::format("{}: moved aside to {} (wincni-install --uninstall puts it back)\n",
                             private_files::join(conf_dir, name), private_files::join(kept, name)));
  }
}

}  // namespace wincni::installer
