// Fault injection at every HNS call an ADD makes (found by running it once
// with the emulator's journal on): a failing call leaves nothing behind —
// no endpoint, no attachment, no address — and a crash at that call leaves
// nothing once the runtime's DEL has run.

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "fault_sweep.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

void host_gw(const EmulatedNode& node) { node.host_gw(); }
void nothing(const EmulatedNode&) {}

std::vector<FaultFlow> flows() {
  return {
      {"containerd, HCN, host-local", host_gw, true, [](const EmulatedNode& node) { return bridge_config(node); }},
      {"dockershim, HNS v1, host-local", host_gw, false,
       [](const EmulatedNode& node) {
         json config = bridge_config(node, "0.2.0");
         config.erase("apiVersion");
         return config;
       }},
      {"dockershim, HNS v1, HNS assigns, loopback DSR", host_gw, false,
       [](const EmulatedNode& node) { return fixture(node, "ref-win-bridge-v1.conf"); }},
      {"containerd, network created by the ADD", nothing, true,
       [](const EmulatedNode& node) { return fixture(node, "legacy-wincni-l2bridge.conf"); }},
  };
}

}  // namespace

TEST_CASE("a failure at any HNS call of ADD leaves nothing behind" * doctest::test_suite("<fault-sweep>")) {
  check_add_failures_leave_nothing(flows(), "fail=0x80004005");
}

// A refusal code (E_INVALIDARG) where HNS had already done the work — the
// read-back of an endpoint just created — must not pass for a create HNS
// refused: the rollback still deletes what the create made.
TEST_CASE("a refusal at any HNS call of ADD, even after the work, leaves nothing behind" *
          doctest::test_suite("<fault-sweep>")) {
  check_add_failures_leave_nothing(flows(), "fail=0x80070057");
}

// The rollback must undo what HNS did without being told — delete the
// endpoint by the ID it chose, detach what was attached.
TEST_CASE("an answer lost at any HNS call of ADD leaves nothing behind" *
          doctest::test_suite("<duplicate-id><fault-sweep>")) {
  check_add_failures_leave_nothing(flows(), "lose=0x80004005");
}

// The rollback's detach step itself: an attach whose answer was lost did
// attach, and the rollback detaches before it deletes — seen in what the
// plugin asked HNS (deleting alone would also empty the namespace here).
TEST_CASE("a failure after the attach: the rollback detaches (HCN namespace; v1 container)" *
          doctest::test_suite("<hns-v1><namespace-state><namespace-listing>")) {
  struct Case {
    std::string flow;
    std::string fault;
    std::string detach;  // how the journal shows the detach
  };
  for (const Case& c :
       {Case{"containerd, HCN, host-local", "ModifyNamespace:1:lose=0x80004005", "\"Remove\""},
        Case{"dockershim, HNS v1, host-local", "ModifyComputeSystem:1:lose=0x80004005", "\"Remove\""}}) {
    CAPTURE(c.flow);
    const std::vector<FaultFlow> all = flows();
    const auto flow = std::find_if(all.begin(), all.end(), [&](const FaultFlow& f) { return f.name == c.flow; });
    REQUIRE(flow != all.end());
    PreparedNode p;
    prepare(p, *flow);
    const std::string journal = p.node.path("journal");
    Run run = p.node.plugin({"ADD",
                             "pod1",
                             p.netns,
                             p.config,
                             {{"WINCNI_EMULATOR_FAULTS", c.fault}, {"WINCNI_EMULATOR_JOURNAL", journal}}});
    CHECK(run.code() == 100);
    std::vector<std::string> calls;
    std::ifstream lines(journal);
    for (std::string line; std::getline(lines, line);) calls.push_back(line);
    const auto attach = std::find_if(calls.begin(), calls.end(), [](const std::string& line) {
      return line.find("\"Add\"") != std::string::npos || line.find("/attach") != std::string::npos;
    });
    REQUIRE(attach != calls.end());
    const auto detach = std::find_if(attach, calls.end(),
                                     [&](const std::string& line) { return line.find(c.detach) != std::string::npos; });
    const auto removal = std::find_if(attach, calls.end(), [](const std::string& line) {
      return line.find("HcnDeleteEndpoint") != std::string::npos || line.find("\"DELETE\"") != std::string::npos;
    });
    CHECK(detach != calls.end());
    CHECK(removal != calls.end());
    CHECK(detach < removal);
    require_clean(p);
  }
}

// A create HNS finishes after the plugin stopped waiting for it: the
// rollback waits for the abandoned call before deleting, so the delete
// comes after the create in what HNS saw, and nothing is left behind
// (here the create ends within the one timeout period the rollback waits).
TEST_CASE("a create that times out is deleted after it completes, not before") {
  const std::vector<FaultFlow> all = flows();
  const auto flow =
      std::find_if(all.begin(), all.end(), [](const FaultFlow& f) { return f.name == "containerd, HCN, host-local"; });
  REQUIRE(flow != all.end());
  PreparedNode p;
  prepare(p, *flow);
  const std::string journal = p.node.path("journal");
  Run run = p.node.plugin({"ADD",
                           "pod1",
                           p.netns,
                           p.config,
                           {{"WINCNI_EMULATOR_FAULTS", "CreateEndpoint:1:delay=500"},
                            {"WINCNI_HNS_TIMEOUT_MS", "400"},
                            {"WINCNI_EMULATOR_JOURNAL", journal}}});
  CHECK_FALSE(run.ok());
  CHECK_MESSAGE(run.msg().find("400 ms") != std::string::npos, run.msg());
  std::vector<std::string> calls;
  std::ifstream lines(journal);
  for (std::string line; std::getline(lines, line);) calls.push_back(line);
  const auto create = std::find_if(calls.begin(), calls.end(), [](const std::string& line) {
    return line.find("CreateEndpoint") != std::string::npos;
  });
  REQUIRE(create != calls.end());
  const auto removal = std::find_if(
      create, calls.end(), [](const std::string& line) { return line.find("DeleteEndpoint") != std::string::npos; });
  CHECK(removal != calls.end());
  require_clean(p);
}

// A crash while ADD was making the network's host side (between creating a
// network and attaching its bridge endpoint) leaves that half made until the
// next ADD completes it; everything of the pod is gone after the DEL already.
TEST_CASE("a crash at any HNS call of ADD leaves nothing once DEL has run and the runtime's next ADD succeeds" *
          doctest::test_suite("<fault-sweep>")) {
  check_add_crashes_are_cleaned_by_del(flows());
}

// The runtime's DEL after the dead ADD without CNI_NETNS, or after it
// removed the sandbox's namespace (natively: the crash sweep above runs
// under Wine too).
TEST_CASE("a crash at any HNS call of ADD, then DEL without CNI_NETNS or after the namespace is gone" *
          doctest::test_suite("<fault-sweep><slow><namespace-state><namespace-listing>")) {
  check_add_crashes_are_cleaned_by_any_del(flows());
}

TEST_CASE("a failure or a crash at any HNS call of DEL: IPAM still released, a second DEL cleans up" *
          doctest::test_suite("<hns-v1><fault-sweep>")) {
  check_del_failures_are_finished_by_del(flows());
}

TEST_CASE("an answer lost at any HNS call of DEL: the repeat finds the work done, DEL succeeds" *
          doctest::test_suite("<hns-v1><fault-sweep>")) {
  check_del_lost_answers_are_repeated(flows());
}

// Each class of error HNS answers with (fault_sweep.hpp), on both APIs and
// where the ADD creates the network (HCN_E_NETWORK_ALREADY_EXISTS at its
// create: another ADD got there first): whatever the call, the pod's network
// is made whole or nothing is left, and DEL finishes. (Not under Wine, nor in
// CI's sanitized pass — 'lean_args': what an HRESULT leads to is the same
// code as natively, and the Win32 layer is covered by the sweeps above.)
TEST_CASE("HNS error classes at every call of ADD and DEL: the pod's network whole or nothing; DEL finishes" *
          doctest::test_suite("<slow>")) {
  check_error_classes({flows()[0], flows()[1], flows()[3]});
  check_add_whole_or_nothing({flows()[0]}, kUnavailable);
  check_del_done_or_finished_by_del({flows()[0]}, kUnavailable);
}
