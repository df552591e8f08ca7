// The command line a Windows child gets (platform/windows_command_line.hpp),
// checked natively against the C runtime's parsing rules (Microsoft's
// "Parsing C++ command-line arguments": 2n backslashes before a quote are n
// backslashes and the quote delimits; 2n+1 are n and a literal quote;
// backslashes elsewhere are literal) by parsing the line back.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "platform/windows_command_line.hpp"

using wincni::os::platform::windows_command_line;

namespace {

std::string line_of(std::vector<std::string> arguments) {
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  return windows_command_line(argv.data());
}

// The C runtime's parser, as Microsoft documents it (the rules for the
// arguments after the program name, which ours follow for every word).
std::vector<std::string> parsed(const std::string& line) {
  std::vector<std::string> arguments;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size()) break;
    std::string argument;
    bool quoted = false;
    while (i < line.size() && (quoted || (line[i] != ' ' && line[i] != '\t'))) {
      std::size_t backslashes = 0;
      while (i < line.size() && line[i] == '\\') ++backslashes, ++i;
      if (i < line.size() && line[i] == '"') {
        argument.append(backslashes / 2, '\\');
        if (backslashes % 2 == 1) {
          argument += '"';
        } else if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
          argument += '"';  // "" inside quotes
          ++i;
        } else {
          quoted = !quoted;
        }
        ++i;
      } else {
        argument.append(backslashes, '\\');
        if (i < line.size() && (quoted || (line[i] != ' ' && line[i] != '\t'))) argument += line[i++];
      }
    }
    arguments.push_back(argument);
  }
  return arguments;
}

}  // namespace

TEST_CASE("Windows command lines: plain words as they are, the rest quoted with backslashes doubled before quotes") {
  CHECK(line_of({"host-local.exe"}) == "host-local.exe");
  CHECK(line_of({"a", "b c"}) == R"(a "b c")");
  CHECK(line_of({""}) == R"("")");
  CHECK(line_of({R"(C:\k\cni\bin)"}) == R"(C:\k\cni\bin)");
  CHECK(line_of({R"(a\)"}) == R"(a\)");
  CHECK(line_of({R"(a b\)"}) == R"("a b\\")");
  CHECK(line_of({R"(a"b)"}) == R"("a\"b")");
  CHECK(line_of({R"(a\"b)"}) == R"("a\\\"b")");
  CHECK(line_of({"tab\there"}) == "\"tab\there\"");
  CHECK(line_of({"pod ü"}) == "\"pod ü\"");
}

TEST_CASE("Windows command lines: every argument comes back as it was from the C runtime's parser") {
  const std::vector<std::vector<std::string>> cases = {
      {"plugin.exe", "ADD"},
      {R"(C:\Program Files\wincni\host-local.exe)", "--flag", "value with spaces"},
      {R"(ends with backslash\)", R"(two\\)", R"(\\server\share\)"},
      {R"(quote " inside)", R"(\")", R"(\\")", R"(""")"},
      {"", "", "x"},
      {"\t", " ", "\v", "\n"},
  };
  for (const auto& arguments : cases) {
    CAPTURE(line_of(arguments));
    CHECK(parsed(line_of(arguments)) == arguments);
  }
}
