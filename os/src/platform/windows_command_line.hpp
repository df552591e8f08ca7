#pragma once
// The command line CreateProcessW gets for an argument vector: each argument
// written so that the C runtime's parser (CommandLineToArgvW, the MSVC and
// mingw start-up code) gives it back as it was. Plain string work, built and
// tested on every platform; only the Windows child process uses it.

#include <string>

namespace wincni::os::platform {

// `argv` ends with a null pointer. UTF-8 in and out: the characters the
// rules look at (blank, tab, newline, vertical tab, quote, backslash) are
// ASCII, so they never occur inside a multi-byte character.
std::string windows_command_line(char* const* argv);

}  // namespace wincni::os::platform
