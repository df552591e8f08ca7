#pragma once
// Many pods' calls at once, one thread per pod (each a process for the
// binary suites, an in-process engine for tests/engine), as a node's runtime
// starts many sandboxes together.

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "emulated_node.hpp"

namespace wincni::test {

// `command` for pods "pod0".."podN-1", pod i in namespaces[i]; the runs in order.
inline std::vector<Run> at_once(const EmulatedNode& node, const std::string& command,
                                const std::vector<std::string>& namespaces, const std::string& config) {
  std::vector<Run> runs(namespaces.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < namespaces.size(); ++i) {
    threads.emplace_back([&, i] {
      runs[i] = node.plugin({command, "pod" + std::to_string(i), namespaces[i], config});
    });
  }
  for (auto& thread : threads) thread.join();
  return runs;
}

// The addresses the ADDs gave, each ADD checked to have succeeded.
inline std::set<std::string> added_addresses(const std::vector<Run>& runs) {
  std::set<std::string> addresses;
  for (size_t i = 0; i < runs.size(); ++i) {
    CHECK_MESSAGE(runs[i].ok(), "pod" << i << ": " << runs[i].out);
    if (runs[i].ok()) addresses.insert(runs[i].json()["ips"][0]["address"].get<std::string>());
  }
  return addresses;
}

}  // namespace wincni::test
