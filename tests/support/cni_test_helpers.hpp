#pragma once
// Helpers shared by the tests of the CNI protocol (libcni unit tests and the
// conformance suite).

#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "wincni/cni/env.hpp"
#include "wincni/cni/error.hpp"
#include "thrown_error.hpp"

namespace wincni::test {

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
