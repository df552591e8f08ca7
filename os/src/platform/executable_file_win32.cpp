#include <windows.h>

#include "wincni/os/executable_file.hpp"
#include "wincni/os/utf16.hpp"
#include "wincni/os/win32_handle.hpp"

namespace wincni::os {

bool may_execute(const std::string& path) {
  try {
    const Win32Handle file(CreateFileW(widen(path).c_str(), FILE_EXECUTE | FILE_READ_DATA,
                                       FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                                       FILE_ATTRIBUTE_NORMAL, nullptr));
    return file.valid();
  } catch (const std::exception&) {  // a path that is no UTF-8
    return false;
  }
}

}  // namespace wincni::os
