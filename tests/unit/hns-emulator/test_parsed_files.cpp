#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "parsed_files.hpp"

using wincni::hns::emulator::ParsedFiles;

namespace {

// A parse that counts its runs.
struct CountingParse {
  int runs = 0;
  std::vector<std::string> parse(const std::string& text) {
    ++runs;
    return {text};
  }
};

}  // namespace

TEST_CASE("ParsedFiles parses a file again only when its text changed") {
  ParsedFiles<std::vector<std::string>> files;
  CountingParse counter;
  auto get = [&](const std::string& path, const std::string& text) {
    return files.get(path, text, [&] { return counter.parse(text); });
  };
  CHECK(get("a.json", "one") == std::vector<std::string>{"one"});
  CHECK(get("a.json", "one") == std::vector<std::string>{"one"});
  CHECK(counter.runs == 1);
  CHECK(get("a.json", "two") == std::vector<std::string>{"two"});
  CHECK(counter.runs == 2);
  // Same text, another file: a file of its own.
  CHECK(get("b.json", "two") == std::vector<std::string>{"two"});
  CHECK(counter.runs == 3);
}

TEST_CASE("ParsedFiles hands out copies: a caller's changes never reach the next caller") {
  ParsedFiles<std::vector<std::string>> files;
  auto first = files.get("a.json", "text", [] { return std::vector<std::string>{"parsed"}; });
  first.push_back("changed by the caller");
  const auto second = files.get("a.json", "text", [] { return std::vector<std::string>{"parsed again"}; });
  CHECK(second == std::vector<std::string>{"parsed"});
}

TEST_CASE("ParsedFiles does not remember a text that failed to parse") {
  ParsedFiles<std::vector<std::string>> files;
  CHECK_THROWS_AS(files.get("a.json", "{", []() -> std::vector<std::string> { throw std::runtime_error("bad"); }),
                  std::runtime_error);
  CHECK_THROWS_AS(files.get("a.json", "{", []() -> std::vector<std::string> { throw std::runtime_error("bad"); }),
                  std::runtime_error);
  CHECK(files.get("a.json", "{", [] { return std::vector<std::string>{"fixed parser"}; }) ==
        std::vector<std::string>{"fixed parser"});
}

TEST_CASE("ParsedFiles keeps what it holds once full and parses further files each time") {
  using Files = ParsedFiles<std::vector<std::string>>;
  Files files;
  CountingParse counter;
  auto get = [&](const std::string& path) { return files.get(path, "text", [&] { return counter.parse("text"); }); };
  for (std::size_t i = 0; i < Files::kCapacity; ++i) get("file" + std::to_string(i));
  CHECK(counter.runs == static_cast<int>(Files::kCapacity));
  get("one-too-many");
  get("one-too-many");
  CHECK(counter.runs == static_cast<int>(Files::kCapacity) + 2);
  get("file0");  // still remembered
  CHECK(counter.runs == static_cast<int>(Files::kCapacity) + 2);
}
