#pragma once
// Which files of a config folder a runtime loads: libcni's ConfFiles takes
// the extensions .conf, .conflist and .json.

#include <string_view>

namespace wincni::cni {

bool is_config_file_name(std::string_view name);

}  // namespace wincni::cni
