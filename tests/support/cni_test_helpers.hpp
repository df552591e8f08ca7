#pragma once
// Helpers shared by the tests of the CNI protocol (libcni unit tests and the
// conformance suite).

#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "wincni/cni/env.hpp"
#include "wincni/cni/error.hpp"

namespace wincni::test {

// The cni::Error `action` throws; the test fails when it throws none.
template <typename Action>
cni::Error thrown_error(Action&& action) {
  try {
    std::forward<Action>(action)();
  } catch (const cni::Error& e) {
    return e;
  }
  FAIL("no cni::Error was thrown");
  return cni::Error(0, "");
}

// What a runtime passes for `command`: every CNI variable set and valid.
inline cni::Environment complete_cni_env(const std::string& command) {
  cni::Environment env;
  env.set("CNI_COMMAND", command);
  env.set("CNI_CONTAINERID", "c1");
  env.set("CNI_NETNS", "ns1");
  env.set("CNI_IFNAME", "eth0");
  env.set("CNI_ARGS", "K8S_POD_NAME=web");
  env.set("CNI_PATH", "/opt/cni/bin");
  return env;
}

}  // namespace wincni::test
