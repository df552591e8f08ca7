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
#include "emulator_journal.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

struct Flow {
  std::string name;
  bool host_gw = true;
  bool containerd = true;  // else dockershim ("none")
  std::function<json(const EmulatedNode&)> config;
};

std::vector<Flow> flows() {
  return {
      {"containerd, HCN, host-local", true, true, [](const EmulatedNode& node) { return bridge_config(node); }},
      {"dockershim, HNS v1, host-local", true, false,
       [](const EmulatedNode& node) {
         json config = bridge_config(node, "0.2.0");
         config.erase("apiVersion");
         return config;
       }},
      {"dockershim, HNS v1, HNS assigns, loopback DSR", true, false,
       [](const EmulatedNode& node) { return fixture(node, "ref-win-bridge-v1.conf"); }},
      {"containerd, network created by the ADD", false, true,
       [](const EmulatedNode& node) { return fixture(node, "legacy-wincni-l2bridge.conf"); }},
  };
}

struct Prepared {
  EmulatedNode node;
  std::string netns;
  std::string config;
  std::string network;
};

void prepare(Prepared& p, const Flow& flow) {
  if (flow.host_gw) p.node.host_gw();
  p.netns = flow.containerd ? p.node.create_namespace() : "none";
  const json config = flow.config(p.node);
  p.config = config.dump();
  p.network = config["name"];
}

// The node as `command` finds it: for DEL, after the pod's ADD.
void prepare_for(Prepared& p, const Flow& flow, const std::string& command) {
  prepare(p, flow);
  if (command == "DEL") p.node.add("pod1", p.netns, p.config);
}

// Each HNS operation of one clean run of `command`, with how often it is called.
std::vector<std::pair<std::string, int>> calls_of(const Flow& flow, const std::string& command) {
  Prepared p;
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
void at_each_call_of(const std::string& command, const std::string& action, Verify&& verify) {
  for (const Flow& flow : flows()) {
    for (const auto& [op, nth] : calls_of(flow, command)) {
      CAPTURE(flow.name);
      CAPTURE(op);
      CAPTURE(nth);
      Prepared p;
      prepare_for(p, flow, command);
      const std::string fault = op + ":" + std::to_string(nth) + ":" + action;
      verify(p, p.node.plugin({command, "pod1", p.netns, p.config, {{"WINCNI_EMULATOR_FAULTS", fault}}}));
    }
  }
}

template <typename Verify>
void at_each_call_of_add(const std::string& action, Verify&& verify) {
  at_each_call_of("ADD", action, std::forward<Verify>(verify));
}

void require_clean(const Prepared& p) {
  CHECK_FALSE(p.node.endpoint("pod1_" + p.network));
  CHECK(p.node.audit() == "");
  CHECK(p.node.held_addresses(p.network).empty());
}

}  // namespace

TEST_CASE("a failure at any HNS call of ADD leaves nothing behind") {
  at_each_call_of_add("fail=0x80004005", [](const Prepared& p, const Run& run) {
    CHECK(run.exit_code == 1);
    CHECK(run.code() == 100);
    require_clean(p);
    // Nothing in the way of the runtime's next attempt.
    CHECK(p.node.plugin({"ADD", "pod1", p.netns, p.config}).ok());
  });
}

// The runtime answers a dead ADD with DEL, then tries the pod again. A crash
// while ADD was making the network's host side (between creating a network
// and attaching its bridge endpoint) leaves that half made until the next
// ADD completes it; everything of the pod is gone after the DEL already.
// An answer lost on its way back (the call did its work, the plugin saw a
// failure): the rollback must undo what HNS did without being told — delete
// the endpoint by the ID it chose, detach what was attached. (E_FAIL, which
// the client never retries, so that every call's loss reaches the ADD.)
TEST_CASE("an answer lost at any HNS call of ADD leaves nothing behind") {
  at_each_call_of_add("lose=0x80004005", [](const Prepared& p, const Run& run) {
    CHECK(run.exit_code == 1);
    CHECK(run.code() == 100);
    require_clean(p);
    CHECK(p.node.plugin({"ADD", "pod1", p.netns, p.config}).ok());
  });
}

// The rollback's detach step itself: an attach whose answer was lost did
// attach, and the rollback detaches before it deletes — seen in what the
// plugin asked HNS (deleting alone would also empty the namespace here).
TEST_CASE("a failure after the attach: the rollback detaches (HCN namespace; v1 container)") {
  struct Case {
    std::string flow;
    std::string fault;
    std::string detach;  // how the journal shows the detach
  };
  for (const Case& c : {Case{"containerd, HCN, host-local", "ModifyNamespace:1:lose=0x80004005", "\"Remove\""},
                        Case{"dockershim, HNS v1, host-local", "ModifyEndpoint:1:lose=0x80004005", "/detach"}}) {
    CAPTURE(c.flow);
    const std::vector<Flow> all = flows();
    const auto flow = std::find_if(all.begin(), all.end(), [&](const Flow& f) { return f.name == c.flow; });
    REQUIRE(flow != all.end());
    Prepared p;
    prepare(p, *flow);
    const std::string journal = p.node.path("journal");
    Run run = p.node.plugin({"ADD", "pod1", p.netns, p.config,
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
  const std::vector<Flow> all = flows();
  const auto flow = std::find_if(all.begin(), all.end(),
                                 [](const Flow& f) { return f.name == "containerd, HCN, host-local"; });
  REQUIRE(flow != all.end());
  Prepared p;
  prepare(p, *flow);
  const std::string journal = p.node.path("journal");
  Run run = p.node.plugin({"ADD", "pod1", p.netns, p.config,
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
  const auto removal = std::find_if(create, calls.end(), [](const std::string& line) {
    return line.find("DeleteEndpoint") != std::string::npos;
  });
  CHECK(removal != calls.end());
  require_clean(p);
}

TEST_CASE("a crash at any HNS call of ADD leaves nothing once DEL has run and the runtime's next ADD succeeds") {
  at_each_call_of_add("crash", [](const Prepared& p, const Run& run) {
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
TEST_CASE("a failure at any HNS call of DEL: IPAM still released, the error reported, a second DEL cleans up") {
  at_each_call_of("DEL", "fail=0x80004005", [](const Prepared& p, const Run& run) {
    CHECK(run.exit_code == 1);
    CHECK(run.code() == 100);
    CHECK_MESSAGE(run.msg().find("0x80004005") != std::string::npos, run.msg());
    CHECK(p.node.held_addresses(p.network).empty());
    p.node.del("pod1", p.netns, p.config);
    require_clean(p);
  });
}

TEST_CASE("a crash at any HNS call of DEL leaves nothing once the next DEL has run") {
  at_each_call_of("DEL", "crash", [](const Prepared& p, const Run& run) {
    CHECK_FALSE(run.ok());
    p.node.del("pod1", p.netns, p.config);
    require_clean(p);
  });
}
