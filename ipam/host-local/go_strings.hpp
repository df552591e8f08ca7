#pragma once
// Go's strings.TrimSpace and strings.Fields for ASCII text: the reference
// compares reservation files and reads resolv.conf with them, and we must
// read those files exactly as it does.

#include <string>
#include <string_view>
#include <vector>

namespace wincni::hostlocal {

std::string_view trim_space(std::string_view text);
std::vector<std::string> split_fields(std::string_view text);

}  // namespace wincni::hostlocal
