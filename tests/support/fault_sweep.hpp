#pragma once
// Fault injection at every HNS call a plugin command makes, for any plugin
// built on the engine. A Flow is one way a runtime drives the plugin (the
// node as it finds it, containerd or dockershim, the config); the sweep
// finds the command's HNS calls by running it once with the emulator's
// journal on, then runs it again on a fresh node with each call failing,
// losing its answer or crashing the plugin, and checks what is left.

#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "emulated_node.hpp"
#include "emulator_journal.hpp"
#include "fault_matrix.hpp"

namespace wincni::test {

struct FaultFlow {
  std::string name;
  std::function<void(const EmulatedNode&)> prepare_node;  // what flanneld (or nobody) made
  bool containerd = true;                                 // else dockershim ("none")
  std::function<nlohmann::json(const EmulatedNode&)> config;
};

struct PreparedNode {
  EmulatedNode node;
  std::string netns;
  std::string config;
  std::string network;
};

inline void prepare(PreparedNode& p, const FaultFlow& flow) {
  flow.prepare_node(p.node);
  p.netns = flow.containerd ? p.node.create_namespace() : "none";
  const nlohmann::json config = flow.config(p.node);
  p.config = config.dump();
  p.network = config["name"];
}

// The node as `command` finds it: for DEL, after the pod's ADD.
inline void prepare_for(PreparedNode& p, const FaultFlow& flow, const std::string& command) {
  prepare(p, flow);
  if (command == "DEL") p.node.add("pod1", p.netns, p.config);
}

// Each HNS operation of one clean run of `command`, with how often it is called.
inline std::vector<std::pair<std::string, int>> calls_of(const FaultFlow& flow, const std::string& command) {
  PreparedNode p;
  prepare_for(p, flow, command);
  const std::string journal = p.node.path("journal");
  Run run = p.node.plugin({command, "pod1", p.netns, p.config, {{"WINCNI_EMULATOR_JOURNAL", journal}}});
  REQUIRE_MESSAGE(run.ok(), run.out);
  return faultable_calls(journal);
}

// Runs `command` with `action` injected at each call that command makes in
// each flow in turn, on a fresh node, and hands the node and the outcome to
// `verify`.
template <typename Verify>
void at_each_call_of(const std::vector<FaultFlow>& flows, const std::string& command, const std::string& action,
                     Verify&& verify) {
  for (const FaultFlow& flow : flows) {
    for (const auto& row : calls_of(flow, command)) {
      // Named copies, not structured bindings: clang 14 cannot capture those.
      const auto& op = std::get<0>(row);
      const auto& nth = std::get<1>(row);
      CAPTURE(flow.name);
      CAPTURE(op);
      CAPTURE(nth);
      PreparedNode p;
      prepare_for(p, flow, command);
      const std::string fault = op + ":" + std::to_string(nth) + ":" + action;
      FaultMatrix::instance().record(flow.name, command, action);
      verify(p, p.node.plugin({command, "pod1", p.netns, p.config, {{"WINCNI_EMULATOR_FAULTS", fault}}}));
    }
  }
}

// No endpoint, no address, and `hnsctl audit` clean.
inline void require_clean(const PreparedNode& p) {
  CHECK_FALSE(p.node.endpoint("pod1_" + p.network));
  CHECK(p.node.audit() == "");
  CHECK(p.node.held_addresses(p.network).empty());
}

// A failure, or an answer lost on its way back (the call did its work, the
// plugin saw a failure), at any HNS call of ADD: code 100, nothing left
// behind, nothing in the way of the runtime's next attempt. (E_FAIL, which
// the client never retries, so that every call's failure reaches the ADD.)
inline void check_add_failures_leave_nothing(const std::vector<FaultFlow>& flows, const std::string& action) {
  at_each_call_of(flows, "ADD", action, [](const PreparedNode& p, const Run& run) {
    CHECK(run.exit_code == 1);
    CHECK(run.code() == 100);
    require_clean(p);
    CHECK(p.node.plugin({"ADD", "pod1", p.netns, p.config}).ok());
  });
}

// The runtime answers a dead ADD with DEL, then tries the pod again.
inline void check_add_crashes_are_cleaned_by_del(const std::vector<FaultFlow>& flows) {
  at_each_call_of(flows, "ADD", "crash", [](const PreparedNode& p, const Run& run) {
    CHECK_FALSE(run.ok());
    p.node.del("pod1", p.netns, p.config);
    CHECK_FALSE(p.node.endpoint("pod1_" + p.network));
    CHECK(p.node.held_addresses(p.network).empty());
    p.node.add("pod1", p.netns, p.config);
    p.node.del("pod1", p.netns, p.config);
    require_clean(p);
  });
}

// DEL keeps going: whichever HNS call fails, the other steps (detach,
// delete, the IPAM release) are still attempted, the failure is what DEL
// reports, and the runtime's next DEL finishes the job.
inline void check_del_failures_are_finished_by_del(const std::vector<FaultFlow>& flows) {
  at_each_call_of(flows, "DEL", "fail=0x80004005", [](const PreparedNode& p, const Run& run) {
    CHECK(run.exit_code == 1);
    CHECK(run.code() == 100);
    CHECK_MESSAGE(run.msg().find("0x80004005") != std::string::npos, run.msg());
    CHECK(p.node.held_addresses(p.network).empty());
    p.node.del("pod1", p.netns, p.config);
    require_clean(p);
  });
  at_each_call_of(flows, "DEL", "crash", [](const PreparedNode& p, const Run& run) {
    CHECK_FALSE(run.ok());
    p.node.del("pod1", p.netns, p.config);
    require_clean(p);
  });
}

// An answer lost at any HNS call of DEL (RPC_S_CALL_FAILED: the work was
// done): every step of DEL may be repeated, so the client does, and the
// repeat finds its work done — a deleted endpoint gone (HNS v1 says so with
// a text in the host's language), a detached container not attached. DEL
// succeeds at once.
inline void check_del_lost_answers_are_repeated(const std::vector<FaultFlow>& flows) {
  at_each_call_of(flows, "DEL", "lose=0x800706BE", [](const PreparedNode& p, const Run& run) {
    CHECK_MESSAGE(run.ok(), run.msg());
    require_clean(p);
  });
}

}  // namespace wincni::test
