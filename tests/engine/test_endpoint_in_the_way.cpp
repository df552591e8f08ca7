// ADD when an endpoint already holds what the pod needs — its name, or the
// address IPAM has just given it. One of the engine's own is replaced or, as
// an orphan of an earlier pod, removed; anyone else's is never touched, and
// the error (code 123) says whose it is.

#include <doctest/doctest.h>

#include <filesystem>

#include "file_text.hpp"
#include "flavor_cases.hpp"
#include "hns_choices.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

std::string name_of(const std::string& sandbox, const char* network) { return sandbox + "_" + network; }

}  // namespace

TEST_CASE_TEMPLATE("an endpoint of the pod's name that the engine did not make is left alone, named", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string name = name_of("pod1", Case::kNetwork);
  const hns::Guid foreign = create_foreign_endpoint(node, Case::kNetwork, name);  // attached to the host
  const std::string ns = node.create_namespace();
  Run run = node.plugin({"ADD", "pod1", ns, node.config().dump()});
  CHECK(run.code() == 123);
  CHECK(run.msg() == "endpoint \"" + name + "\" (" + foreign.str() + ") holds the name " + name +
                         ", which this pod needs, and " + std::string(Case::flavor().plugin_name()) +
                         " did not create it (another plugin's or an operator's; attached to the host (a node "
                         "endpoint)): it is left alone — remove it (hnsctl endpoint delete " +
                         foreign.str() + ") once nothing uses it");
  CHECK(node_client(node).find_endpoint(foreign));
  CHECK(node.held_addresses(Case::kNetwork).empty());
  CHECK(node.audit() == "");
}

TEST_CASE_TEMPLATE("an endpoint attached to another namespace is replaced, and that namespace no longer lists it", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string config = node.config().dump();
  const std::string old_ns = node.create_namespace();
  const std::string new_ns = node.create_namespace();
  node.add("pod1", old_ns, config);
  node.add("pod1", new_ns, config);  // the sandbox was recreated
  auto endpoint = node.endpoint(name_of("pod1", Case::kNetwork));
  REQUIRE(endpoint);
  CHECK((*endpoint)["HostComputeNamespace"] == new_ns);
  auto old = node_client(node).find_namespace(*hns::Guid::parse(old_ns));
  REQUIRE(old);
  CHECK(old->endpoint_ids().empty());
  CHECK(node.held_addresses(Case::kNetwork).size() == 1);  // the old address went back to IPAM
  CHECK(node.audit() == "");
  node.del("pod1", new_ns, config);
  CHECK(node.held_addresses(Case::kNetwork).empty());
}

TEST_CASE_TEMPLATE("an endpoint whose address IPAM does not confirm is replaced with a fresh allocation", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string config = node.config().dump();
  const std::string ns = node.create_namespace();
  const json first = node.add("pod1", ns, config);
  const std::string first_address = first["ips"][0]["address"];
  const std::string held = first_address.substr(0, first_address.find('/'));
  // IPAM lost the reservation (a wiped data dir).
  REQUIRE(std::filesystem::remove(std::filesystem::path(node.ipam_dir()) / Case::kNetwork / held));
  const json second = node.add("pod1", ns, config);
  CHECK(second["ips"][0]["address"] != first_address);
  CHECK(node.held_addresses(Case::kNetwork).size() == 1);
  CHECK(node.audit() == "");
}

namespace {

// The file host-local keeps for an address: "<container>\r\n<ifname>".
std::string holder_of(const EmulatedNode& node, const char* network, const std::string& address) {
  return file_text(std::filesystem::path(node.ipam_dir()) / network / address.substr(0, address.find('/')));
}

}  // namespace

TEST_CASE_TEMPLATE(
    "an orphan of the engine's whose namespace is gone, holding the address IPAM gives the pod, goes "
    "with its port mappings",
    Case, WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  json config = node.config();
  config["runtimeConfig"] = {{"portMappings", {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}}}}};
  const std::string old_ns = node.create_namespace();
  const json first = node.add("old", old_ns, config.dump());
  REQUIRE(first["ips"][0]["address"] == Case::kFirstAddress);
  // The node rebooted: IPAM's store is gone, the pod's namespace too, its
  // endpoint is not (attached to nothing, or under the emulator's
  // leaves-reference switch still naming the namespace).
  std::filesystem::remove_all(std::filesystem::path(node.ipam_dir()) / Case::kNetwork);
  REQUIRE(node_client(node).delete_namespace(*hns::Guid::parse(old_ns)));

  const json second = node.add("new", node.create_namespace(), config.dump(), {{"WINCNI_ORPHAN_GRACE_MS", "200"}});
  CHECK(second["ips"][0]["address"] == Case::kFirstAddress);
  CHECK_FALSE(node.endpoint(name_of("old", Case::kNetwork)));
  CHECK(node.endpoint(name_of("new", Case::kNetwork)));
  // containerd's DEL of the old sandbox after the reboot, without netns,
  // finds nothing of it and leaves the new pod's address alone.
  node.del("old", "", config.dump());
  CHECK(node.held_addresses(Case::kNetwork).size() == 1);
  CHECK(node.audit() == "");
}

TEST_CASE_TEMPLATE("an orphan of the engine's attached to nothing beyond the grace period goes", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string config = node.config().dump();
  const std::string old_ns = node.create_namespace();
  node.add("old", old_ns, config);
  // An ADD that died between its create and its attach left it so.
  const auto old = node.endpoint(name_of("old", Case::kNetwork));
  REQUIRE(old);
  REQUIRE(node_client(node).detach_from_namespace(*hns::Guid::parse(old_ns),
                                                  *hns::Guid::parse((*old)["ID"].template get<std::string>())));
  std::filesystem::remove_all(std::filesystem::path(node.ipam_dir()) / Case::kNetwork);

  const json second = node.add("new", node.create_namespace(), config, {{"WINCNI_ORPHAN_GRACE_MS", "200"}});
  CHECK(second["ips"][0]["address"] == Case::kFirstAddress);
  CHECK_FALSE(node.endpoint(name_of("old", Case::kNetwork)));
  node.del("old", "", config);
  CHECK(node.held_addresses(Case::kNetwork).size() == 1);
  CHECK(node.audit() == "");
}

// security and operator reviews: host-local's store lost (an operator wiped
// C:\var\lib\cni, a moved dataDir) while pod A runs. Pod B's ADD gets A's
// address; A's endpoint must stay, and the store learns the address is A's.
TEST_CASE_TEMPLATE(
    "a live pod's endpoint holding the address IPAM gives again is kept, and the address given back to it", Case,
    WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string config = node.config().dump();
  const std::string a_ns = node.create_namespace();
  const json a = node.add("podA", a_ns, config);
  const std::string a_address = a["ips"][0]["address"];
  std::filesystem::remove_all(std::filesystem::path(node.ipam_dir()) / Case::kNetwork);

  const Run run = node.plugin({"ADD", "podB", node.create_namespace(), config, {{"WINCNI_LOG_LEVEL", "warn"}}});
  REQUIRE_MESSAGE(run.ok(), run.out << run.err);
  const json b = json::parse(run.out);
  CHECK(b["ips"][0]["address"] != a_address);
  // A is untouched: its endpoint, its namespace's attachment, its address.
  const auto a_endpoint = node.endpoint(name_of("podA", Case::kNetwork));
  REQUIRE(a_endpoint);
  CHECK((*a_endpoint)["HostComputeNamespace"] == a_ns);
  CHECK(endpoint_address(*a_endpoint) + "/" + a_address.substr(a_address.find('/') + 1) == a_address);
  // The store holds A's address for A again, and B's for B.
  CHECK(holder_of(node, Case::kNetwork, a_address) == "podA\r\neth0");
  CHECK(holder_of(node, Case::kNetwork, b["ips"][0]["address"]) == "podB\r\neth0");
  CHECK(node.held_addresses(Case::kNetwork).size() == 2);
  CHECK(node.audit() == "");
  // The repair is on record where doctor shows it, with no log file set.
  const Run doctor =
      node.hnsctl({"doctor", "--json", "--cache-dir", node.runtime_cache_dir(), "--data-dir", node.ipam_dir(),
                   "--flannel-dir", node.scratch_dir(), "--conf-dir", node.path("no-configs")});
  const json repairs = json::parse(doctor.out, nullptr, false).value("Repairs", json::array());
  REQUIRE_MESSAGE(repairs.size() == 1, doctor.out << doctor.err);
  CHECK_MESSAGE(repairs[0].get<std::string>().find("giving it back to podA") != std::string::npos, repairs[0]);

  // Both pods leave as usual, and nothing is left.
  node.del("podB", "", config);
  node.del("podA", a_ns, config);
  CHECK(node.held_addresses(Case::kNetwork).empty());
  CHECK(node.audit() == "");
}

// A node in migration runs dockershim pods (HNS v1, attached to containers)
// and containerd pods (HCN namespaces) on one network: the HCN view of a
// dockershim pod's endpoint shows no namespace, yet its pod lives.
TEST_CASE_TEMPLATE("a live dockershim pod's endpoint met by a containerd ADD is kept, its address given back", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string config = node.config("0.3.1").dump();
  const json pause = node.add("pause1", "none", config);
  std::filesystem::remove_all(std::filesystem::path(node.ipam_dir()) / Case::kNetwork);
  const json pod = node.add("pod2", node.create_namespace(), config, {{"WINCNI_ORPHAN_GRACE_MS", "200"}});
  CHECK(pod["ips"][0]["address"] != pause["ips"][0]["address"]);
  CHECK(node.endpoint(name_of("pause1", Case::kNetwork)));
  CHECK(holder_of(node, Case::kNetwork, pause["ips"][0]["address"]) == "pause1\r\neth0");
}

TEST_CASE_TEMPLATE("a store that lost every live pod's address gives each back in turn", Case, WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string config = node.config().dump();
  std::vector<std::string> live;
  for (const char* pod : {"pod1", "pod2", "pod3"})
    live.push_back(node.add(pod, node.create_namespace(), config)["ips"][0]["address"]);
  std::filesystem::remove_all(std::filesystem::path(node.ipam_dir()) / Case::kNetwork);

  const json fresh = node.add("pod4", node.create_namespace(), config);
  for (const std::string& address : live) CHECK(fresh["ips"][0]["address"] != address);
  for (const char* pod : {"pod1", "pod2", "pod3", "pod4"}) CHECK(node.endpoint(name_of(pod, Case::kNetwork)));
  CHECK(node.held_addresses(Case::kNetwork).size() == 4);
  CHECK(node.audit() == "");
}

TEST_CASE_TEMPLATE("an endpoint someone else made holding the address IPAM gives the pod stops the ADD, named", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  // HNS gives it the first free address: the one host-local hands out first.
  const hns::Guid foreign = create_foreign_endpoint(node, Case::kNetwork, "kube-proxy-vip");
  const std::string first = Case::kFirstAddress;
  Run run = node.plugin({"ADD", "pod1", node.create_namespace(), node.config().dump()});
  CHECK(run.code() == 123);
  CHECK(run.msg().find("endpoint \"kube-proxy-vip\" (" + foreign.str() + ") holds " +
                       first.substr(0, first.find('/'))) != std::string::npos);
  CHECK(node_client(node).find_endpoint(foreign));
  CHECK_FALSE(node.endpoint(name_of("pod1", Case::kNetwork)));
  CHECK(node.held_addresses(Case::kNetwork).empty());
  CHECK(node.audit() == "");
}
