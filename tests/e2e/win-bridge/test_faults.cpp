// Fault injection at every HNS call an ADD makes (found by running it once
// with the emulator's journal on): a failing call leaves nothing behind —
// no endpoint, no attachment, no address — and a crash at that call leaves
// nothing once the runtime's DEL has run.

#include <doctest/doctest.h>

#include <fstream>
#include <map>

#include "configs.hpp"
#include "emulated_node.hpp"

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

std::string kind_of(const std::string& collection) {
  if (collection == "endpoints") return "Endpoint";
  if (collection == "namespaces") return "Namespace";
  return "Network";
}

// The name fault injection knows a journaled call by: the Hcn* verb without
// "Hcn"; for HNSCall, the operation the request amounts to (POST
// /endpoints/ is CreateEndpoint). "" for calls that cannot fail (Close).
std::string fault_name(const json& entry) {
  const std::string op = entry.at("op");
  if (op.starts_with("HcnClose")) return {};
  if (op.starts_with("Hcn")) return op.substr(3);
  const json& input = entry.at("input");
  const std::string method = input.at("Method");
  const std::string path = input.at("Path");  // "/endpoints/<id>/attach"
  std::vector<std::string> parts;
  for (size_t start = 1; start < path.size();) {
    const size_t end = path.find('/', start);
    parts.push_back(path.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (parts.empty()) return {};
  if (parts[0] == "globals") return "GetVersion";
  const std::string kind = kind_of(parts[0]);
  const bool has_id = parts.size() > 1 && !parts[1].empty();
  if (method == "GET") return has_id ? "Query" + kind + "Properties" : "Enumerate" + kind + "s";
  if (method == "DELETE") return "Delete" + kind;
  return has_id ? "Modify" + kind : "Create" + kind;
}

// Each HNS operation of one clean ADD, with how often it is called.
std::vector<std::pair<std::string, int>> calls_of_add(const Flow& flow) {
  Prepared p;
  prepare(p, flow);
  const std::string journal = p.node.path("journal");
  Run run = p.node.plugin({"ADD", "pod1", p.netns, p.config, {{"WINCNI_EMULATOR_JOURNAL", journal}}});
  REQUIRE_MESSAGE(run.ok(), run.out);
  std::vector<std::pair<std::string, int>> calls;
  std::map<std::string, int> seen;
  std::ifstream lines(journal);
  for (std::string line; std::getline(lines, line);) {
    const std::string op = fault_name(json::parse(line));
    if (!op.empty()) calls.emplace_back(op, ++seen[op]);
  }
  REQUIRE(calls.size() >= 5);
  return calls;
}

// Runs ADD with `action` injected at each call of each flow's ADD in turn,
// on a fresh node, and hands the node and the outcome to `verify`.
template <typename Verify>
void at_each_call_of_add(const std::string& action, Verify&& verify) {
  for (const Flow& flow : flows()) {
    for (const auto& [op, nth] : calls_of_add(flow)) {
      CAPTURE(flow.name);
      CAPTURE(op);
      CAPTURE(nth);
      Prepared p;
      prepare(p, flow);
      const std::string fault = op + ":" + std::to_string(nth) + ":" + action;
      verify(p, p.node.plugin({"ADD", "pod1", p.netns, p.config, {{"WINCNI_EMULATOR_FAULTS", fault}}}));
    }
  }
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
