// hnsctl end to end: the binary on an emulated node, as an operator and the
// node's scripts run it: setting up flanneld's networks, listing them as
// tables and as HNS JSON, namespaces, kube-proxy's source VIP, audit, and
// its exit codes. The same program runs natively and, built for Windows,
// under Wine against hnsctl.exe and the emulator DLLs (hnsctl-e2e-wine).

#include <doctest/doctest.h>

#include "emulated_node.hpp"

namespace wincni::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

Run must(const Run& run) {
  INFO(run.out << run.err);
  REQUIRE(run.ok());
  return run;
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

TEST_CASE("node host-gw: the L2Bridge network and its host endpoint, as HNS JSON and as tables") {
  EmulatedNode node;
  node.host_gw("10.244.1.0/24");
  const auto networks = node.networks();
  REQUIRE(networks.size() == 1);
  const json& cbr0 = networks[0];
  CHECK(cbr0["Name"] == "cbr0");
  CHECK(cbr0["Type"] == "L2Bridge");
  CHECK(cbr0["Ipams"][0]["Subnets"][0]["IpAddressPrefix"] == "10.244.1.0/24");
  const auto endpoints = node.endpoints();
  REQUIRE(endpoints.size() == 1);
  CHECK(endpoints[0]["Name"] == "cbr0_ep");
  CHECK(endpoints[0]["IpConfigurations"][0]["IpAddress"] == "10.244.1.2");
  CHECK(endpoints[0]["HostComputeNetwork"] == cbr0["ID"]);

  const std::string table = must(node.hnsctl({"network", "list"})).out;
  CHECK(table.find("cbr0") != std::string::npos);
  CHECK(table.find("L2Bridge") != std::string::npos);
  CHECK(table.find("10.244.1.1") != std::string::npos);
  const std::string by_name = must(node.hnsctl({"network", "show", "cbr0"})).out;
  const std::string by_id = must(node.hnsctl({"network", "show", cbr0["ID"].get<std::string>()})).out;
  CHECK(by_name == by_id);
  CHECK(must(node.hnsctl({"endpoint", "show", "cbr0_ep"})).out.find("10.244.1.2") != std::string::npos);
  CHECK(node.audit().empty());
}

TEST_CASE("node vxlan: the Overlay network with VSID, port and provider address") {
  EmulatedNode node;
  node.vxlan("10.244.3.0/24", "flannel.4096", "4096");
  const auto networks = node.networks();
  REQUIRE(networks.size() == 1);
  const json& overlay = networks[0];
  CHECK(overlay["Name"] == "flannel.4096");
  CHECK(overlay["Type"] == "Overlay");
  CHECK(overlay["Ipams"][0]["Subnets"][0]["Policies"][0] ==
        json{{"Type", "VSID"}, {"Settings", {{"IsolationId", 4096}}}});
  bool port = false;
  for (const json& policy : overlay["Policies"]) {
    if (policy["Type"] == "VxlanPort") port = policy["Settings"]["Port"] == 4789;
  }
  CHECK(port);
  // Windows' VXLAN takes VNIs from 4096 (flannel refuses lower ones too).
  const Run low = node.hnsctl({"node", "vxlan", "--subnet", "10.244.4.0/24", "--name", "other", "--vni", "1"});
  CHECK(low.exit_code == 2);
}

TEST_CASE("namespaces: create, list, delete") {
  EmulatedNode node;
  const std::string id = node.create_namespace();
  CHECK(id.size() == 36);
  CHECK(must(node.hnsctl({"namespace", "list"})).out.find(id) != std::string::npos);
  must(node.hnsctl({"namespace", "delete", id}));
  CHECK(must(node.hnsctl({"namespace", "list"})).out.find(id) == std::string::npos);
  CHECK(node.hnsctl({"namespace", "delete", id}).exit_code == 1);
}

TEST_CASE("source-vip: one address in the pods' store, the same every time, never a pod's") {
  EmulatedNode node;
  node.vxlan("10.244.3.0/24", "flannel.4096", "4096");
  const std::vector<std::string> reserve = {"source-vip", "flannel.4096", "--data-dir", node.ipam_dir(), "--endpoint"};
  const std::string vip = trimmed(must(node.hnsctl(reserve)).out);
  CHECK(vip == "10.244.3.2");
  CHECK(trimmed(must(node.hnsctl(reserve)).out) == vip);
  CHECK(node.held_addresses("flannel.4096") == std::vector<std::string>{vip});
  const auto endpoint = node.endpoint("flannel.4096_source_vip");
  REQUIRE(endpoint.has_value());
  CHECK((*endpoint)["IpConfigurations"][0]["IpAddress"] == vip);

  // A pod's host-local, on the same store, goes past it.
  const json pod = {{"cniVersion", "1.0.0"},
                    {"name", "flannel.4096"},
                    {"ipam",
                     {{"type", "host-local"},
                      {"dataDir", node.ipam_dir()},
                      {"ranges", json::array({json::array({{{"subnet", "10.244.3.0/24"}}})})}}}};
  const Run added = node.host_local(pod.dump(), {{"CNI_COMMAND", "ADD"},
                                                 {"CNI_CONTAINERID", "pod"},
                                                 {"CNI_NETNS", "ns"},
                                                 {"CNI_IFNAME", "eth0"}});
  INFO(added.out << added.err);
  REQUIRE(added.ok());
  CHECK(added.json()["ips"][0]["address"] == "10.244.3.3/24");

  const Run missing = node.hnsctl({"source-vip", "vxlan0", "--data-dir", node.ipam_dir()});
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("no network \"vxlan0\"") != std::string::npos);
}

TEST_CASE("caps: what this host's HNS lets wincni do, and the versions that would") {
  EmulatedNode node;
  const json current = json::parse(must(node.hnsctl({"caps", "--json"})).out);
  for (const json& row : current["Capabilities"]) CHECK_MESSAGE(row["Supported"] == true, row);
  // A 1809-era host (HNS 9.1): no HCN, no DSR.
  const Run old = node.hnsctl({"caps"}, {{"WINCNI_EMULATOR_HNS_VERSION", "9.1"}});
  INFO(old.out << old.err);
  REQUIRE(old.ok());
  CHECK(old.out.rfind("HNS 9.1", 0) == 0);
  CHECK(old.out.find("no  DSR") != std::string::npos);
  CHECK(old.out.find("HNS 9.3-9.x, 10.2 and later has it") != std::string::npos);
  const json table = json::parse(must(node.hnsctl({"caps", "--json"}, {{"WINCNI_EMULATOR_HNS_VERSION", "10.1"}})).out);
  CHECK(table["Version"] == "10.1");
  std::map<std::string, bool> supported;
  for (const json& row : table["Capabilities"]) supported[row["Feature"]] = row["Supported"];
  CHECK(supported == std::map<std::string, bool>{{"ApiV2", true}, {"DSR", false}, {"IPv6DualStack", false},
                                                 {"RemoteSubnet", true}, {"HostRoute", true}});
}

TEST_CASE("names in any script reach HNS intact (UTF-8 arguments, also on Windows)") {
  EmulatedNode node;
  const std::string name = "\xe8\x8a\x82\xe7\x82\xb9-n\xc5\x93ud";  // 节点-nœud
  must(node.hnsctl({"node", "host-gw", "--subnet", "10.244.1.0/24", "--name", name}));
  CHECK(node.networks().at(0)["Name"] == name);
  CHECK(must(node.hnsctl({"network", "show", name})).out.find("10.244.1.0/24") != std::string::npos);
}

TEST_CASE("exit codes: 0 done, 1 failed, 2 misused; each with a message") {
  EmulatedNode node;
  CHECK(trimmed(must(node.hnsctl({"--version"})).out).rfind("hnsctl (wincni ", 0) == 0);
  const Run no_args = node.hnsctl({});
  CHECK(no_args.exit_code == 2);
  CHECK(no_args.out.find("Usage:") != std::string::npos);
  const Run unknown = node.hnsctl({"network", "frobnicate"});
  CHECK(unknown.exit_code == 2);
  const Run bad_flag = node.hnsctl({"network", "list", "--no-such-flag"});
  CHECK(bad_flag.exit_code == 2);
  const Run no_subnet = node.hnsctl({"node", "host-gw"});
  CHECK(no_subnet.exit_code == 2);
  const Run absent = node.hnsctl({"network", "show", "nothere"});
  CHECK(absent.exit_code == 1);
  CHECK(absent.err.find("no network \"nothere\"") != std::string::npos);
  CHECK(must(node.hnsctl({"node", "host-gw", "--help"})).out.find("Usage:") != std::string::npos);

  // A state directory that cannot be made is a clear failure, not a crash.
  const fs::path blocker = node.path("a-file");
  std::ofstream(blocker) << "not a directory";
  const Run unusable = node.hnsctl({"network", "list"}, {{"WINCNI_EMULATOR_DIR", (blocker / "below").string()}});
  CHECK(unusable.exit_code == 1);
  CHECK_FALSE(unusable.err.empty());
}

}  // namespace
}  // namespace wincni::test
