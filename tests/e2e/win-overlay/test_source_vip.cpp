// kube-proxy's source VIP on an overlay node: the distributions' host-local
// invocation as their scripts send it (any cniVersion, a UTF-8 BOM or
// UTF-16 from PowerShell), `hnsctl source-vip` reserving it in the pods'
// store, and no pod ever given it, not even by many ADDs at once, nor freed
// by GC.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "emulated_node.hpp"
#include "file_text.hpp"
#include "foreign_endpoint.hpp"
#include "overlay_configs.hpp"
#include "powershell_text.hpp"
#include "simultaneous_pods.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

// What sig-windows-tools' and rke2's scripts send host-local (see docs/host-local.md).
std::string script_request(const EmulatedNode& node, const std::string& version) {
  return json{
      {"cniVersion", version},
      {"name", "flannel.4096"},
      {"ipam", {{"type", "host-local"}, {"ranges", {{{{"subnet", kOverlaySubnet}}}}}, {"dataDir", node.ipam_dir()}}}}
      .dump();
}

const std::map<std::string, std::string> kScriptVariables = {
    {"CNI_COMMAND", "ADD"}, {"CNI_CONTAINERID", "kube-proxy"}, {"CNI_NETNS", "dummy"}, {"CNI_IFNAME", "source-vip"}};

std::string source_vip(const EmulatedNode& node, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{"source-vip", "flannel.4096", "--data-dir", node.ipam_dir()};
  args.insert(args.end(), extra.begin(), extra.end());
  Run run = node.hnsctl(args);
  REQUIRE_MESSAGE(run.ok(), run.out << run.err);
  std::string address = run.out;
  while (!address.empty() && (address.back() == '\n' || address.back() == '\r')) address.pop_back();
  return address;
}

}  // namespace

TEST_CASE("host-local takes the scripts' invocation: 0.2.0 and 1.0.0 shapes, a UTF-8 BOM, UTF-16") {
  EmulatedNode node;
  Run legacy = node.host_local(script_request(node, "0.2.0"), kScriptVariables);
  REQUIRE_MESSAGE(legacy.ok(), legacy.out);
  CHECK(legacy.json()["ip4"]["ip"] == "10.244.3.2/24");  // what the scripts read for 0.2.0

  for (const std::string& encoded :
       {utf8_with_bom(script_request(node, "1.0.0")), utf16le_with_bom(script_request(node, "1.0.0"))}) {
    auto variables = kScriptVariables;
    variables["CNI_CONTAINERID"] = "dummy";
    variables["CNI_IFNAME"] = "dummy";
    Run run = node.host_local(encoded, variables);
    REQUIRE_MESSAGE(run.ok(), run.out);
    CHECK(run.json()["ips"][0]["address"].get<std::string>().starts_with("10.244.3."));  // ips[0].address for >= 0.3.0
    variables["CNI_COMMAND"] = "DEL";
    CHECK(node.host_local(encoded, variables).ok());
  }
}

TEST_CASE("hnsctl source-vip: idempotent, in the pods' store, moved when the subnet changes") {
  EmulatedNode node;
  node.vxlan();
  const std::string vip = source_vip(node);
  CHECK(vip == "10.244.3.2");
  CHECK(source_vip(node) == vip);
  const auto file = std::filesystem::path(node.ipam_dir()) / "flannel.4096" / vip;
  CHECK(file_text(file) == "kube-proxy\r\nsource-vip");  // host-local's own format: its DEL and GC see the owner

  // The node rejoined with another pod subnet.
  node.vxlan("10.244.9.0/24");
  const std::string moved = source_vip(node, {"--endpoint"});
  CHECK(moved == "10.244.9.2");
  CHECK_FALSE(std::filesystem::exists(file));
  const auto endpoint = node.endpoint("flannel.4096_source_vip");
  REQUIRE(endpoint);
  CHECK((*endpoint)["IpConfigurations"][0]["IpAddress"] == moved);
  CHECK(source_vip(node, {"--endpoint"}) == moved);
  CHECK(node.audit() == "");

  Run missing = node.hnsctl({"source-vip", "vxlan0", "--data-dir", node.ipam_dir()});
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("no network \"vxlan0\"") != std::string::npos);
}

TEST_CASE("no pod gets the source VIP, not even 50 ADDs at once; GC keeps it") {
  constexpr size_t kPods = 50;
  EmulatedNode node;
  node.vxlan();
  const std::string vip = source_vip(node);
  const json config = overlay_config(node);
  std::vector<std::string> namespaces;
  for (size_t i = 0; i < kPods; ++i) namespaces.push_back(node.create_namespace());
  const auto addresses = added_addresses(at_once(node, "ADD", namespaces, config.dump()));
  CHECK(addresses.size() == kPods);
  CHECK(addresses.count(vip + "/24") == 0);

  // A GC that names no pod as valid frees every pod's address, never the VIP
  // (nor the "dummy" reservation of sig-windows-tools' and k3s's scripts).
  auto dummy = kScriptVariables;
  dummy["CNI_CONTAINERID"] = "dummy";
  dummy["CNI_IFNAME"] = "dummy";
  REQUIRE(node.host_local(script_request(node, "1.0.0"), dummy).ok());
  json gc = overlay_config(node, "1.1.0");
  gc["cni.dev/valid-attachments"] = json::array();
  for (const Run& run : at_once(node, "DEL", namespaces, config.dump())) CHECK(run.ok());
  Run collected = node.host_local(gc.dump(), {{"CNI_COMMAND", "GC"}});
  CHECK_MESSAGE(collected.ok(), collected.out);
  auto held = node.held_addresses("flannel.4096");
  std::sort(held.begin(), held.end());
  CHECK(held.size() == 2);
  CHECK(std::find(held.begin(), held.end(), vip) != held.end());
  CHECK(node.audit() == "");
}

// security review: source-vip trusted the store blindly.
TEST_CASE("hnsctl source-vip with a store that does not know the pods' addresses refuses, and keeps nothing") {
  EmulatedNode node;
  node.vxlan();
  const json config = overlay_config(node);
  const json pod = node.add("pod1", node.create_namespace(), config.dump());
  REQUIRE(pod["ips"][0]["address"] == "10.244.3.2/24");
  const std::string wrong = node.path("wrong-data-dir");
  Run refused = node.hnsctl({"source-vip", "flannel.4096", "--data-dir", wrong, "--endpoint"});
  CHECK(refused.exit_code == 1);
  CHECK_MESSAGE(refused.err.find("holds it: that store does not know the pods' addresses") != std::string::npos,
                refused.err);
  CHECK(refused.err.find("the new reservation was released") != std::string::npos);
  CHECK_FALSE(node.endpoint("flannel.4096_source_vip"));
  std::error_code none;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(wrong) / "flannel.4096", none)) {
    const std::string name = entry.path().filename().string();
    CHECK_MESSAGE((name == "lock" || name.starts_with("last_reserved_ip.") || name == ".wincni-owners"), name);
  }
}

TEST_CASE("hnsctl source-vip --endpoint: the new endpoint is made before the old one goes; a failed create keeps it") {
  EmulatedNode node;
  node.vxlan();
  const std::string vip = source_vip(node, {"--endpoint"});
  const auto old = node.endpoint("flannel.4096_source_vip");
  REQUIRE(old);
  // The store now holds another address for kube-proxy (as after a move).
  const auto store = std::filesystem::path(node.ipam_dir()) / "flannel.4096";
  std::filesystem::remove(store / vip);
  std::ofstream(store / "10.244.3.9", std::ios::binary) << "kube-proxy\r\nsource-vip";
  Run failed = node.hnsctl({"source-vip", "flannel.4096", "--data-dir", node.ipam_dir(), "--endpoint"},
                           {{"WINCNI_EMULATOR_FAULTS", "CreateEndpoint:1+:fail=0x80004005"}});
  CHECK(failed.exit_code == 1);
  const auto kept = node.endpoint("flannel.4096_source_vip");
  REQUIRE(kept);
  CHECK((*kept)["ID"] == (*old)["ID"]);
  // Without the fault: the new one, and only it.
  CHECK(source_vip(node, {"--endpoint"}) == "10.244.3.9");
  const auto now = node.endpoint("flannel.4096_source_vip");
  REQUIRE(now);
  CHECK((*now)["IpConfigurations"][0]["IpAddress"] == "10.244.3.9");
  CHECK_FALSE(node_client(node).find_endpoint(*hns::Guid::parse((*old)["ID"].get<std::string>())));
  CHECK(node.audit() == "");
}

// kubernetes/kubernetes#100962: a reservation outside the pods' store is no
// reservation. Without --data-dir, the pods' config says where it is.
TEST_CASE("hnsctl source-vip without --data-dir reserves in the store the pods' config names") {
  EmulatedNode node;
  node.vxlan();
  const json config = overlay_config(node);
  const std::filesystem::path conf_dir = node.path("net.d");
  std::filesystem::create_directories(conf_dir);
  std::ofstream(conf_dir / "10-wincni.conf") << config.dump();
  Run run = node.hnsctl({"source-vip", "flannel.4096", "--conf-dir", conf_dir.string()});
  REQUIRE_MESSAGE(run.ok(), run.out << run.err);
  CHECK(run.err.find("the pods' ipam.dataDir, from") != std::string::npos);
  const std::string vip = run.out.substr(0, run.out.find_first_of("\r\n"));
  CHECK(file_text(std::filesystem::path(node.ipam_dir()) / "flannel.4096" / vip) == "kube-proxy\r\nsource-vip");
  // A pod of that config goes past it.
  const json pod = node.add("pod1", node.create_namespace(), config.dump());
  CHECK(pod["ips"][0]["address"] != vip + "/24");
}

// kube-proxy makes its own endpoint for the VIP when none is given
// (newSourceVIP): the next run, at its next start, keeps the reservation.
TEST_CASE("hnsctl source-vip run again beside the endpoint kube-proxy made for the VIP keeps it") {
  EmulatedNode node;
  node.vxlan();
  const std::string vip = source_vip(node);
  hns::HnsClient client = node_client(node);
  const auto network = client.find_network_by_name("flannel.4096");
  REQUIRE(network);
  hns::HostComputeEndpoint kube_proxys;
  kube_proxys.name = "kube-proxy-made";
  kube_proxys.host_compute_network = network->id;
  kube_proxys.ip_configurations.push_back({*cni::IpAddress::parse(vip), 24});
  client.create_endpoint(kube_proxys);
  CHECK(source_vip(node) == vip);
}
