#include "file_names.hpp"

namespace wincni::hostlocal {

bool platform_escapes_colons() { return true; }

}  // namespace wincni::hostlocal
