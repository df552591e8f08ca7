#pragma once
// A whole file as bytes, for tests that compare or parse what a binary wrote
// (empty when it cannot be read: the comparison then fails and says so).

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace wincni::test {

inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace wincni::test
