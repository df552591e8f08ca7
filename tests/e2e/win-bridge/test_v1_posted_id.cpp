// Whether HNS v1 keeps the "ID" a client posts with a new network or
// endpoint is not public: every client seen reads the ID from HNS's answer.
// The engine's proof that an object is its own is the ID it chose
// (engine/plan/endpoint_marker.hpp), so under the emulator's
// WINCNI_EMULATOR_V1_POSTED_ID=ignored a dockershim pod's network and
// endpoint must still end up under the engine's IDs: ADD again reuses the
// endpoint, GC collects a dead pod's and leaves a live one and a foreign one,
// doctor finds nothing. Without HCN (before HNS 9.2) there is no way to
// choose an ID: the pod still starts and its DEL removes it, and GC, which
// cannot prove the endpoint is the plugin's, removes nothing.

#include <doctest/doctest.h>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "foreign_endpoint.hpp"

using namespace wincni::test;
using nlohmann::json;

namespace {

const std::map<std::string, std::string> kIgnored{{"WINCNI_EMULATOR_V1_POSTED_ID", "ignored"}};

std::string gc_config(const std::string& config, const std::string& live_pod) {
  json gc = json::parse(config);
  gc["cniVersion"] = "1.1.0";
  gc["cni.dev/valid-attachments"] = json::array({{{"containerID", live_pod}, {"ifname", "eth0"}}});
  return gc.dump();
}

}  // namespace

TEST_CASE(
    "HNS v1 that does not keep a posted ID: the plugin's objects still carry its IDs, so ADD again, GC "
    "and doctor know them" *
    doctest::test_suite("<hns-v1>")) {
  EmulatedNode node;
  const std::string config = fixture(node, "legacy-wincni-l2bridge.conf").dump();

  Run first = node.plugin({"ADD", "pause1", "none", config, kIgnored});
  REQUIRE_MESSAGE(first.ok(), first.report());
  // The runtime tries the same ADD again: the endpoint is the plugin's own,
  // reused with its address (a foreign one would stop ADD with 123).
  Run again = node.plugin({"ADD", "pause1", "none", config, kIgnored});
  REQUIRE_MESSAGE(again.ok(), again.report());
  CHECK(again.json()["ips"] == first.json()["ips"]);

  Run second = node.plugin({"ADD", "pause2", "none", config, kIgnored});
  REQUIRE_MESSAGE(second.ok(), second.report());
  create_foreign_endpoint(node, "l2bridge", "pause3_l2bridge");  // looks like the plugin's, is not

  // pause2's sandbox is gone; pause1's lives.
  Run gc = node.plugin({"GC", "", "", gc_config(config, "pause1"), kIgnored});
  REQUIRE_MESSAGE(gc.ok(), gc.report());
  CHECK(node.endpoint("pause1_l2bridge"));
  CHECK_FALSE(node.endpoint("pause2_l2bridge"));
  CHECK(node.endpoint("pause3_l2bridge"));
  node.forget("pause2", "l2bridge");
  REQUIRE(node.hnsctl({"endpoint", "delete", "pause3_l2bridge"}).ok());
  CHECK(node.audit() == "");

  Run removed = node.plugin({"DEL", "pause1", "none", config, kIgnored});
  CHECK_MESSAGE(removed.ok(), removed.report());
  CHECK_FALSE(node.endpoint("pause1_l2bridge"));
  CHECK(node.audit() == "");
}

TEST_CASE(
    "HNS v1 that does not keep a posted ID, on a host without HCN: the pod starts, DEL removes it, a failed "
    "ADD leaves nothing, GC removes nothing it cannot prove is the plugin's" *
    doctest::test_suite("<hns-v1>")) {
  EmulatedNode node;
  const std::string config = fixture(node, "legacy-wincni-l2bridge.conf").dump();
  std::map<std::string, std::string> env = kIgnored;
  env["WINCNI_EMULATOR_HNS_VERSION"] = "9.1";
  env["WINCNI_LOG_STDERR"] = "warn";

  Run added = node.plugin({"ADD", "pause1", "none", config, env});
  REQUIRE_MESSAGE(added.ok(), added.report());
  CHECK_MESSAGE(added.err.find("has no HCN to create it under that one") != std::string::npos, added.report());
  Run gc = node.plugin({"GC", "", "", gc_config(config, "other"), env});
  REQUIRE_MESSAGE(gc.ok(), gc.report());
  CHECK(node.endpoint("pause1_l2bridge"));
  Run removed = node.plugin({"DEL", "pause1", "none", config, env});
  CHECK_MESSAGE(removed.ok(), removed.report());
  CHECK_FALSE(node.endpoint("pause1_l2bridge"));

  // A pod whose container is not running fails after its endpoint was made:
  // the rollback removes it by the ID HNS answered with.
  node.starts_containers = false;
  Run failed = node.plugin({"ADD", "pause2", "none", config, env});
  CHECK(failed.exit_code == 1);
  CHECK_FALSE(node.endpoint("pause2_l2bridge"));
}
