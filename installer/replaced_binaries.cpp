#include "replaced_binaries.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "binary_replacement.hpp"
#include "wincni/cni/build_identity.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::installer {

namespace {

namespace files = os::private_files;

}  // namespace

void keep_replaced_binary(const std::string& bin_dir, const std::string& file_name, const std::string& build,
                          os::ByteSink& report) {
  const std::string path = files::join(bin_dir, file_name);
  if (files::is_link(path) || !files::is_regular_file(path)) return;
  const auto installed = files::read_file(path);
  if (!installed || *installed == build || cni::is_wincni_build(*installed)) return;
  const std::string kept_dir = files::join(bin_dir, kReplacedFolder);
  if (files::is_link(kept_dir)) {
    throw std::runtime_error(
        fmt::format("{} is a link: the plugin {} replaces is not kept through one; nothing "
                    "was replaced",
                    kept_dir, path));
  }
  files::create_private_directories(kept_dir);
  // The copy is the last other plugin an install replaced: one put there
  // after an earlier install (a newer reference build) takes its place.
  const std::string kept = files::join(kept_dir, file_name);
  if (files::is_link(kept)) throw std::runtime_error(fmt::format("{} is a link: nothing was replaced", kept));
  if (files::read_file(kept) == installed) return;
  files::replace_file(kept_dir, file_name, new_copy_name(file_name), *installed);
  report.write(fmt::format("{}: another project's plugin; kept as {} (--uninstall puts it back)\n", path, kept));
}

void restore_replaced_binary(const std::string& bin_dir, const std::string& file_name, os::ByteSink& report) {
  const std::string kept_dir = files::join(bin_dir, kReplacedFolder);
  const std::string kept = files::join(kept_dir, file_name);
  if (files::is_link(kept_dir) || files::is_link(kept) || !files::is_regular_file(kept)) return;
  const std::string path = files::join(bin_dir, file_name);
  if (files::is_regular_file(path) || files::is_link(path)) {
    report.write(fmt::format("{}: kept: {} is still there; put it back by hand once it is gone\n", kept, path));
    return;
  }
  files::move_over(kept, path);
  report.write(fmt::format("{}: put back (from {})\n", path, kept_dir));
  files::remove_directory_if_empty(kept_dir);
}

}  // namespace wincni::installer
