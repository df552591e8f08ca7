#pragma once
// A program's command-line arguments in UTF-8. On Windows the `char** argv`
// main() gets is in the ANSI code page, which turns a folder named in
// another script into question marks; the wide command line is the one
// Windows keeps intact, so it is read and converted instead.

#include <string>
#include <vector>

namespace wincni::os {

// argv[1..argc) as UTF-8: on POSIX as given, on Windows from the wide
// command line (argc and argv are then used only when it cannot be read).
std::vector<std::string> program_arguments(int argc, char** argv);

}  // namespace wincni::os
