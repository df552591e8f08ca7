#pragma once
// The text Windows gives a Win32 error code, in the host's language, with
// the code: "Access is denied. (error 5)" (Windows builds only). The C++
// library's system_category() in mingw's GCC reads the code as an errno
// ("Input/output error" for 5), so messages take their text from here.

#include <string>

namespace wincni::os {

std::string win32_error_text(unsigned long code);

}  // namespace wincni::os
