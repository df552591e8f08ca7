#pragma once
// A fresh directory under the system temp dir, removed with everything in it
// when the test ends, so tests never depend on or leave behind shared state.

#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace wincni::test {

class ScratchDir {
 public:
  ScratchDir() {
    std::random_device seed;
    std::mt19937_64 bits(seed());
    for (;;) {
      path_ = std::filesystem::temp_directory_path() / ("wincni-test-" + std::to_string(bits()));
      if (std::filesystem::create_directory(path_)) break;
    }
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace wincni::test
