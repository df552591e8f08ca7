#pragma once
// Writing a config file a runtime or flanneld may be reading at that moment:
// the new text goes to a file beside it (<name>.new-<8 hex>, a name no
// runtime loads) and is renamed over it, so a reader sees the old file or
// the new one. UTF-8 as given, no byte-order mark. A file that already says
// the same is not touched.

#include <string>
#include <string_view>

namespace wincni::installer {

// False when dir/name already held `content`. Creates dir when missing.
bool update_config_file(const std::string& dir, const std::string& name, std::string_view content);

}  // namespace wincni::installer
