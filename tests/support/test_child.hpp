#pragma once
// Where the tests find wincni-test-child (see wincni-test-child.cpp): the
// path comes from the environment that tests/support/meson.build gives the
// test, so the same test binary works natively and under Wine.

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace wincni::test {

inline std::string test_child_program() {
  const char* path = std::getenv("WINCNI_TEST_CHILD");
  if (path == nullptr || *path == '\0') {
    throw std::runtime_error("WINCNI_TEST_CHILD is not set: run the tests with meson test");
  }
  return path;
}

// The executable's file name on this platform, for copying it under a plugin name.
inline std::string executable_name(const std::string& stem) {
#ifdef _WIN32
  return stem + ".exe";
#else
  return stem;
#endif
}

}  // namespace wincni::test
