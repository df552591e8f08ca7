#include "wincni/cni/config_file_names.hpp"

namespace wincni::cni {

bool is_config_file_name(std::string_view name) {
  return name.ends_with(".conf") || name.ends_with(".conflist") || name.ends_with(".json");
}

}  // namespace wincni::cni
