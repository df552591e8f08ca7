#pragma once
// Fault injection at every HNS call a plugin command makes, for any plugin
// built on the engine. A Flow is one way a runtime drives the plugin (the
// node as it finds it, containerd or dockershim, the config); the sweep
// finds the command's HNS calls by running it once with the emulator's
// journal on, then runs it again on a fresh node with each call failing,
// losing its answer, crashing the plugin or answering each class of error
// (not found, already exists, ...), and checks what is left
// (docs/fault-matrix.md).

#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <set>
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

// One fault at one HNS call: the emulator's action (faults.hpp) and the
// environment it needs (a hang needs a short HNS timeout to end at all).
struct InjectedFault {
  std::string label;                                         // as the matrix prints it
  std::function<std::string(const std::string& op)> action;  // "" where the fault cannot happen
  std::set<int> outcomes = {};    // what the command may end with: 0 success, the CNI code, -1 died
  bool every_later_call = false;  // N+: the call keeps failing however often it is repeated
  std::map<std::string, std::string> env = {};
};

inline InjectedFault fixed(const std::string& label, const std::string& action, std::set<int> outcomes) {
  return {label, [action](const std::string&) { return action; }, std::move(outcomes)};
}

// Runs `command` with `fault` injected at each call that command makes in
// each flow in turn, on a fresh node, and hands the node and the outcome to
// `verify`; the matrix counts each case and its outcome.
template <typename Verify>
void at_each_call_of(const std::vector<FaultFlow>& flows, const std::string& command, const InjectedFault& fault,
                     Verify&& verify) {
  for (const FaultFlow& flow : flows) {
    for (const auto& row : calls_of(flow, command)) {
      // Named copies, not structured bindings: clang 14 cannot capture those.
      const auto& op = std::get<0>(row);
      const auto& nth = std::get<1>(row);
      CAPTURE(flow.name);
      CAPTURE(op);
      CAPTURE(nth);
      const std::string action = fault.action(op);
      if (action.empty()) continue;
      PreparedNode p;
      prepare_for(p, flow, command);
      std::map<std::string, std::string> env = fault.env;
      const std::string calls = std::to_string(nth) + (fault.every_later_call ? "+" : "");
      env["WINCNI_EMULATOR_FAULTS"] = op + ":" + calls + ":" + action;
      const Run run = p.node.plugin({command, "pod1", p.netns, p.config, env});
      const int outcome = run.ok() ? 0 : run.code() != 0 ? run.code() : -1;
      FaultMatrix::instance().record(flow.name, command, fault.label, outcome);
      if (!fault.outcomes.empty()) CHECK_MESSAGE(fault.outcomes.contains(outcome), run.out << run.err);
      verify(p, run);
    }
  }
}

template <typename Verify>
void at_each_call_of(const std::vector<FaultFlow>& flows, const std::string& command, const std::string& action,
                     Verify&& verify) {
  at_each_call_of(flows, command, fixed(action, action, {}), std::forward<Verify>(verify));
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

// The runtime answers a dead ADD with DEL, then tries the pod again. The DEL
// comes as runtimes send it: with the sandbox's namespace, with CNI_NETNS
// empty (the spec allows it, and a runtime that lost the sandbox sends it
// so), or after the namespace is gone (containerd may remove it first).
// The last two only where the pod has a namespace (containerd).
enum class DelAfterCrash { AsSent, EmptyNetns, NamespaceGone };

inline void check_add_crashes_are_cleaned_by_del(const std::vector<FaultFlow>& flows,
                                                 DelAfterCrash how = DelAfterCrash::AsSent) {
  std::vector<FaultFlow> swept;
  for (const FaultFlow& flow : flows) {
    if (flow.containerd || how == DelAfterCrash::AsSent) swept.push_back(flow);
  }
  const std::string label = how == DelAfterCrash::AsSent       ? "crash"
                            : how == DelAfterCrash::EmptyNetns ? "crash, DEL without netns"
                                                               : "crash, namespace gone";
  // The plugin died, or (flannel) said its delegate did: 999.
  const InjectedFault crash = fixed(label, "crash", {-1, 999});
  at_each_call_of(swept, "ADD", crash, [how](const PreparedNode& p, const Run& run) {
    CHECK_FALSE(run.ok());
    std::string netns = p.netns;
    if (how == DelAfterCrash::NamespaceGone) REQUIRE(p.node.hnsctl({"namespace", "delete", p.netns}).ok());
    p.node.del("pod1", how == DelAfterCrash::EmptyNetns ? "" : p.netns, p.config);
    CHECK_FALSE(p.node.endpoint("pod1_" + p.network));
    CHECK(p.node.held_addresses(p.network).empty());
    if (how == DelAfterCrash::NamespaceGone) netns = p.node.create_namespace();
    p.node.add("pod1", netns, p.config);
    p.node.del("pod1", netns, p.config);
    require_clean(p);
  });
}

// Both of the runtime's unusual DELs after a crash at every call of ADD
// (the containerd flows).
inline void check_add_crashes_are_cleaned_by_any_del(const std::vector<FaultFlow>& flows) {
  check_add_crashes_are_cleaned_by_del(flows, DelAfterCrash::EmptyNetns);
  check_add_crashes_are_cleaned_by_del(flows, DelAfterCrash::NamespaceGone);
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

// The classes of error an HNS call can end with, each with the code the
// emulator gives for the object the call names, as real HNS does
// (docs/fault-matrix.md): not found, already there, access
// denied, HNS's service unreachable (once: the client repeats the call; on
// every attempt: it gives up), and a call that never returns.
inline std::string not_found_for(const std::string& op) {
  if (op.find("Network") != std::string::npos) return "fail=0x803B0001";        // HCN_E_NETWORK_NOT_FOUND
  if (op.find("Endpoint") != std::string::npos) return "fail=0x803B0002";       // HCN_E_ENDPOINT_NOT_FOUND
  if (op.find("ComputeSystem") != std::string::npos) return "fail=0xC037010E";  // HCS_E_SYSTEM_NOT_FOUND
  return "fail=0x80070490";                                                     // ERROR_NOT_FOUND
}

inline std::string already_there_for(const std::string& op) {
  if (op.find("Network") != std::string::npos) return "fail=0x803B0010";    // HCN_E_NETWORK_ALREADY_EXISTS
  if (op.find("Namespace") != std::string::npos) return "fail=0x803B0014";  // HCN_E_ENDPOINT_ALREADY_ATTACHED
  return "fail=0x800700B7";                                                 // ERROR_ALREADY_EXISTS
}

// A refusal ends ADD and DEL with code 100; a not-found is an answer some
// lookups expect (no endpoint in the way), so ADD may go on. An unreachable
// HNS is retried, and once it stays so, or a call hangs, the runtime is told
// to try again later (11).
inline const InjectedFault kNotFound{"not found", not_found_for, {0, 100}};
inline const InjectedFault kAlreadyThere{"already exists", already_there_for, {100}};
inline const InjectedFault kAccessDenied = fixed("access denied", "fail=0x80070005", {100});
inline const InjectedFault kUnavailableOnce = fixed("RPC unavailable once", "fail=0x800706BA", {0});
inline const InjectedFault kUnavailable{
    "RPC unavailable always", [](const std::string&) { return "fail=0x800706BA"; }, {11}, true};
// 250 ms: far above what a call takes on the emulator, even sanitized.
inline const InjectedFault kHang{"hang past the timeout",
                                 [](const std::string&) { return "hang"; },
                                 {11},
                                 false,
                                 {{"WINCNI_HNS_TIMEOUT_MS", "250"}}};

// For DEL, HNS says an endpoint is not found when it is gone, which an
// answer alone cannot make so: the delete itself is answered "not found"
// after doing its work (someone removed the endpoint just before), and
// lookups of the endpoint are left out. DEL succeeds.
inline std::string gone_for_del(const std::string& op) {
  if (op == "DeleteEndpoint") return "lose=0x803B0002";
  if (op.find("Endpoint") != std::string::npos) return {};
  return not_found_for(op);
}
inline const InjectedFault kNotFoundInDel{"not found", gone_for_del, {0, 100}};

inline std::vector<InjectedFault> error_classes(const std::string& command) {
  return {command == "DEL" ? kNotFoundInDel : kNotFound, kAlreadyThere, kAccessDenied, kUnavailableOnce, kHang};
}

// Whatever an HNS call of ADD answers: ADD either gives the pod its network
// whole — the endpoint there, the runtime's DEL then leaves nothing — or
// fails with a CNI error (100, or 11 for "try again later") and leaves
// nothing, and the runtime's next ADD succeeds.
inline void check_add_whole_or_nothing(const std::vector<FaultFlow>& flows, const InjectedFault& fault) {
  at_each_call_of(flows, "ADD", fault, [](const PreparedNode& p, const Run& run) {
    if (run.ok()) {
      CHECK(p.node.endpoint("pod1_" + p.network));
      CHECK(p.node.audit() == "");
      p.node.del("pod1", p.netns, p.config);
      require_clean(p);
      return;
    }
    CHECK(run.exit_code == 1);
    CHECK_MESSAGE((run.code() == 100 || run.code() == 11), run.out);
    CHECK_FALSE(run.msg().empty());
    require_clean(p);
    CHECK(p.node.plugin({"ADD", "pod1", p.netns, p.config}).ok());
  });
}

// Whatever an HNS call of DEL answers: DEL succeeds and leaves nothing, or
// fails with a CNI error having released the address, and the runtime's
// next DEL leaves nothing.
inline void check_del_done_or_finished_by_del(const std::vector<FaultFlow>& flows, const InjectedFault& fault) {
  at_each_call_of(flows, "DEL", fault, [](const PreparedNode& p, const Run& run) {
    if (!run.ok()) {
      CHECK(run.exit_code == 1);
      CHECK_MESSAGE((run.code() == 100 || run.code() == 11), run.out);
      CHECK_FALSE(run.msg().empty());
      CHECK(p.node.held_addresses(p.network).empty());
      p.node.del("pod1", p.netns, p.config);
    }
    require_clean(p);
  });
}

// Every class of error at every call of ADD and of DEL, in each flow (one
// per HNS API). HNS unreachable on every attempt (kUnavailable) is left
// to one flow of one suite: each of its cases waits out the client's
// backoff, and what follows is the engine's, the same for every plugin.
inline void check_error_classes(const std::vector<FaultFlow>& flows) {
  for (const InjectedFault& fault : error_classes("ADD")) {
    CAPTURE(fault.label);
    check_add_whole_or_nothing(flows, fault);
  }
  for (const InjectedFault& fault : error_classes("DEL")) {
    CAPTURE(fault.label);
    check_del_done_or_finished_by_del(flows, fault);
  }
}

}  // namespace wincni::test
