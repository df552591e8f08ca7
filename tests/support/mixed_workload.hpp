#pragma once
// A busy node: many ADD, DEL, CHECK and STATUS calls over many pods from
// several workers at once, as a runtime makes them (never two calls for one
// pod at a time: containerd serialises a sandbox's calls, so each worker
// owns its pods). Every call must succeed, no two live pods may ever hold
// one address, and the invariants (EmulatedNode::audit) hold with the
// survivors up and once they are deleted.

#include <doctest/doctest.h>

#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "emulated_node.hpp"

namespace wincni::test {

struct Workload {
  std::size_t operations = 500;  // calls in all, STATUS included
  std::size_t pods = 100;        // each owned by one worker
  std::size_t workers = 8;       // threads, each running one call at a time
  std::string network;           // whose host-local store must be empty at the end
};

// 500 calls over 100 pods from 8 workers; under Wine, where each call
// starts Windows processes that take a hundred times longer, 120 over 40.
inline Workload busy_workload(const std::string& network) {
#ifdef _WIN32
  return Workload{120, 40, 8, network};
#else
  return Workload{500, 100, 8, network};
#endif
}

struct WorkloadOutcome {
  std::map<std::string, std::size_t> calls;      // by command
  std::vector<std::string> failures;             // unexpected errors and address clashes
  std::map<std::string, std::string> survivors;  // pods up at the end -> their namespace
};

// Runs `workload` with `config` (cniVersion 1.1.0, for STATUS) on `node`,
// containerd's way: a fresh namespace for each ADD.
inline WorkloadOutcome run_workload(const EmulatedNode& node, const std::string& config, const Workload& workload) {
  WorkloadOutcome outcome;
  std::mutex mutex;
  std::map<std::string, std::string> address_of;  // live pod -> address
  // No doctest macro on the workers: pods' threads must not touch its
  // thread-local state (emulated_node.hpp). Findings are collected instead.
  const auto fail = [&](const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex);
    outcome.failures.push_back(what);
  };
  const auto worker = [&](std::size_t index) {
    std::mt19937 random(static_cast<unsigned>(index) * 7919u + 17u);
    struct Pod {
      std::string name;
      std::string netns;      // empty while down
      nlohmann::json result;  // its ADD's, which the runtime hands CHECK and DEL as prevResult
    };
    std::vector<Pod> pods;
    for (std::size_t p = index; p < workload.pods; p += workload.workers) {
      pods.push_back({"busy" + std::to_string(p), "", nullptr});
    }
    const std::size_t share = workload.operations / workload.workers + (index < workload.operations % workload.workers);
    for (std::size_t op = 0; op < share; ++op) {
      Pod& pod = pods[random() % pods.size()];
      const int dice = static_cast<int>(random() % 4);
      std::string command;
      if (dice == 3) {
        command = "STATUS";
      } else if (pod.netns.empty()) {
        command = dice == 2 ? "DEL" : "ADD";  // a DEL of a pod that is down must succeed too
      } else {
        command = dice == 0 ? "CHECK" : "DEL";
      }
      if (command == "ADD") {
        // Not create_namespace(): its check is a doctest macro.
        const Run created = node.hnsctl({"namespace", "create"});
        if (!created.ok()) {
          fail("namespace create: " + created.out + created.err);
          continue;
        }
        pod.netns = created.out.substr(0, created.out.find_first_of("\r\n"));
      }
      if (command == "DEL" && !pod.netns.empty()) {
        std::lock_guard<std::mutex> lock(mutex);
        address_of.erase(pod.name);  // before its DEL releases the address
      }
      nlohmann::json stdin_config = nlohmann::json::parse(config);
      if ((command == "CHECK" || command == "DEL") && !pod.netns.empty()) stdin_config["prevResult"] = pod.result;
      const Run run = node.plugin({command, command == "STATUS" ? "" : pod.name, pod.netns, stdin_config.dump()});
      {
        std::lock_guard<std::mutex> lock(mutex);
        ++outcome.calls[command];
      }
      if (!run.ok()) {
        fail(command + " " + pod.name + ": " + run.out + run.err);
        continue;
      }
      if (command == "DEL") pod.netns.clear();
      if (command != "ADD") continue;
      pod.result = run.json();
      const std::string address = pod.result["ips"][0]["address"].get<std::string>();
      std::lock_guard<std::mutex> lock(mutex);
      for (const auto& [other, held] : address_of) {
        if (held == address) outcome.failures.push_back(pod.name + " got " + address + ", which " + other + " holds");
      }
      address_of[pod.name] = address;
    }
    std::lock_guard<std::mutex> lock(mutex);
    for (const Pod& pod : pods) {
      if (!pod.netns.empty()) outcome.survivors[pod.name] = pod.netns;
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t w = 0; w < workload.workers; ++w) threads.emplace_back(worker, w);
  for (std::thread& thread : threads) thread.join();
  return outcome;
}

// The workload, then its checks: no failure, the invariants with the
// survivors up, then with them deleted and no address held.
inline void check_busy_node(const EmulatedNode& node, const std::string& config, const Workload& workload) {
  const WorkloadOutcome outcome = run_workload(node, config, workload);
  std::size_t total = 0;
  std::string mix;
  for (const auto& [command, count] : outcome.calls) {
    total += count;
    mix += " " + command + " " + std::to_string(count);
  }
  MESSAGE(total << " calls (" << mix << " ) from " << workload.workers << " workers over " << workload.pods << " pods; "
                << outcome.survivors.size() << " up at the end");
  CHECK(total == workload.operations);
  for (const std::string& failure : outcome.failures) FAIL_CHECK(failure);
  CHECK(node.audit() == "");
  for (const auto& [pod, netns] : outcome.survivors) node.del(pod, netns, config);
  CHECK(node.audit() == "");
  CHECK(node.held_addresses(workload.network).empty());
}

}  // namespace wincni::test
