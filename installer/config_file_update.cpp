#include "config_file_update.hpp"

#include "binary_replacement.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::installer {

bool update_config_file(const std::string& dir, const std::string& name, std::string_view content) {
  namespace private_files = os::private_files;
  private_files::create_private_directories(dir);
  if (private_files::read_file(private_files::join(dir, name)) == content) return false;
  private_files::replace_file(dir, name, new_copy_name(name), content);
  return true;
}

}  // namespace wincni::installer
