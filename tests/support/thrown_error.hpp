#pragma once
// The error an action throws, for tests of every room (the suite's one
// exception type, wincni/os/error.hpp).

#include <doctest/doctest.h>

#include <utility>

#include "wincni/os/error.hpp"

namespace wincni::test {

// The os::Error `action` throws; the test fails when it throws none.
template <typename Action>
os::Error thrown_error(Action&& action) {
  try {
    std::forward<Action>(action)();
  } catch (const os::Error& e) {
    return e;
  }
  FAIL("no os::Error was thrown");
  return os::Error(0, "");
}

}  // namespace wincni::test
