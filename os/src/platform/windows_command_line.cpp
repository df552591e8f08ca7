#include "windows_command_line.hpp"

#include <string_view>

namespace wincni::os::platform {

namespace {

// One argument: as it is when it is not empty and holds no blank or quote;
// else quoted, with the backslashes before a quote (or the closing one)
// doubled and the quote escaped.
void append_quoted(std::string& line, std::string_view argument) {
  if (!argument.empty() && argument.find_first_of(" \t\n\v\"") == std::string_view::npos) {
    line += argument;
    return;
  }
  line += '"';
  std::size_t backslashes = 0;
  for (char c : argument) {
    if (c == '\\') {
      ++backslashes;
      continue;
    }
    line.append(c == '"' ? backslashes * 2 + 1 : backslashes, '\\');
    backslashes = 0;
    line += c;
  }
  line.append(backslashes * 2, '\\');
  line += '"';
}

}  // namespace

std::string windows_command_line(char* const* argv) {
  std::string line;
  for (char* const* word = argv; *word != nullptr; ++word) {
    if (!line.empty()) line += ' ';
    append_quoted(line, *word);
  }
  return line;
}

}  // namespace wincni::os::platform
