#include "wincni/os/program_arguments.hpp"

#ifdef _WIN32
#include <windows.h>
#include <shellapi.h>

#include "wincni/os/utf16.hpp"
#endif

namespace wincni::os {

std::vector<std::string> program_arguments(int argc, char** argv) {
#ifdef _WIN32
  int wide_count = 0;
  wchar_t** wide = CommandLineToArgvW(GetCommandLineW(), &wide_count);
  if (wide != nullptr) {
    std::vector<std::string> args;
    try {
      for (int i = 1; i < wide_count; ++i) args.push_back(narrow(wide[i]));
      LocalFree(wide);
      return args;
    } catch (const Utf16Error&) {
      // An unpaired surrogate: fall back to what the C runtime made of it.
      LocalFree(wide);
    }
  }
#endif
  return std::vector<std::string>(argv + (argc > 0 ? 1 : 0), argv + (argc > 0 ? argc : 0));
}

}  // namespace wincni::os
