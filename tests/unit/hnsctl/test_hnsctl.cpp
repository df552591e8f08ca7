// hnsctl's commands, run in-process against the emulator.

#include "command.hpp"
#include "emulated_host.hpp"
#include "emulator_fixture.hpp"
#include "wincni/os/byte_streams.hpp"

using namespace hns_test;
using namespace wincni;

namespace {

struct Hnsctl {
  TempDir dir;
  std::shared_ptr<Emulator> emulator = std::make_shared<Emulator>(config_for(dir.path()));
  hns::HnsClient client{emulator};
  std::unique_ptr<hnsctl::EmulatedHost> host = hnsctl::emulated_host(*emulator);
  os::StringSink out;
  os::StringSink err;

  int run(std::vector<std::string> args) {
    out.text.clear();
    err.text.clear();
    hnsctl::Context context{client, host.get(), out, err};
    return hnsctl::run_hnsctl(args, context);
  }
  json json_of(std::vector<std::string> args) {
    REQUIRE(run(std::move(args)) == 0);
    return json::parse(out.text);
  }
};

}  // namespace

TEST_CASE("hnsctl node host-gw leaves the node as flanneld's host-gw backend does") {
  Hnsctl hnsctl;
  REQUIRE(hnsctl.run({"node", "host-gw", "--subnet", "10.244.1.0/24"}) == 0);
  json networks = hnsctl.json_of({"network", "list", "--json"});
  REQUIRE(networks.size() == 1);
  CHECK(networks[0]["Name"] == "cbr0");
  CHECK(networks[0]["Type"] == "L2Bridge");
  CHECK(networks[0]["Ipams"][0]["Subnets"][0]["IpAddressPrefix"] == "10.244.1.0/24");
  CHECK(networks[0]["Ipams"][0]["Subnets"][0]["Routes"][0]["NextHop"] == "10.244.1.1");
  json endpoints = hnsctl.json_of({"endpoint", "list", "--json"});
  REQUIRE(endpoints.size() == 1);
  CHECK(endpoints[0]["Name"] == "cbr0_ep");
  CHECK(endpoints[0]["IpConfigurations"][0]["IpAddress"] == "10.244.1.2");
  auto v1 = hnsctl.client.find_hns_endpoint_by_name("cbr0_ep");
  REQUIRE(v1);
  CHECK(v1->state == hns::EndpointState::Attached);
  // Run again: everything is reused, nothing duplicated.
  REQUIRE(hnsctl.run({"node", "host-gw", "--subnet", "10.244.1.0/24"}) == 0);
  CHECK(hnsctl.json_of({"endpoint", "list", "--json"})[0]["ID"] == endpoints[0]["ID"]);
  // Another subnet replaces the network and its host endpoint.
  REQUIRE(hnsctl.run({"node", "host-gw", "--subnet", "10.244.7.0/24", "--adapter", "Ethernet 2"}) == 0);
  json replaced = hnsctl.json_of({"endpoint", "list", "--json"});
  REQUIRE(replaced.size() == 1);
  CHECK(replaced[0]["IpConfigurations"][0]["IpAddress"] == "10.244.7.2");
  CHECK(hnsctl.client.find_hns_network_by_name("cbr0")->network_adapter_name == "Ethernet 2");
  CHECK(hnsctl.run({"audit"}) == 0);
}

TEST_CASE("hnsctl node vxlan: Overlay with VSID, VxlanPort, DR MAC and provider address") {
  Hnsctl hnsctl;
  REQUIRE(hnsctl.run({"node", "vxlan", "--subnet", "10.244.3.0/24", "--vni", "4100", "--management-ip", "10.0.0.4"}) ==
          0);
  CHECK(hnsctl.out.text.find("provider address 10.0.0.4") != std::string::npos);
  // flanneld's name for it: flannel.<VNI>.
  auto network = hnsctl.client.find_network_by_name("flannel.4100");
  REQUIRE(network);
  CHECK(network->type == hns::NetworkType::Overlay);
  CHECK(network->subnets()[0]->policies[0].as<hns::VsidPolicy>()->isolation_id == 4100);
  CHECK(network->find_policy<hns::VxlanPortPolicy>()->port == 4789);
  CHECK(network->find_policy<hns::HostRoutePolicy>());
  CHECK(network->find_policy<hns::DrMacAddressPolicy>());
  CHECK(network->find_policy<hns::ProviderAddressPolicy>()->provider_address == "10.0.0.4");
  CHECK(hnsctl.client.find_hns_network_by_name("flannel.4100")->management_ip == cni::IpAddress::parse("10.0.0.4"));
  // A name given is kept.
  REQUIRE(hnsctl.run({"node", "vxlan", "--subnet", "10.244.4.0/24", "--name", "vxlan0"}) == 0);
  CHECK(hnsctl.client.find_network_by_name("vxlan0"));

  CHECK(hnsctl.run({"node", "vxlan", "--subnet", "10.244.3.0/24", "--vni", "4095"}) == 2);
  CHECK(hnsctl.err.text.find("--vni 4095 is out of range") != std::string::npos);
  CHECK(hnsctl.run({"node", "vxlan", "--subnet", "10.244.3.0/24", "--port", "http"}) == 2);
}

TEST_CASE("hnsctl network and endpoint show and delete, by name or ID") {
  Hnsctl hnsctl;
  REQUIRE(hnsctl.run({"node", "host-gw", "--subnet", "10.244.1.0/24"}) == 0);
  json shown = hnsctl.json_of({"endpoint", "show", "cbr0_ep"});
  CHECK(shown["Name"] == "cbr0_ep");
  CHECK(hnsctl.json_of({"endpoint", "show", shown["ID"]})["Name"] == "cbr0_ep");
  REQUIRE(hnsctl.run({"endpoint", "delete", "cbr0_ep"}) == 0);
  CHECK(hnsctl.out.text.find("deleted endpoint cbr0_ep") == 0);
  CHECK(hnsctl.run({"endpoint", "show", "cbr0_ep"}) == 1);
  CHECK(hnsctl.err.text == "hnsctl: no endpoint \"cbr0_ep\"\n");
  REQUIRE(hnsctl.run({"network", "show", "cbr0"}) == 0);
  REQUIRE(hnsctl.run({"network", "delete", "cbr0"}) == 0);
  CHECK(hnsctl.run({"network", "delete", "cbr0"}) == 1);
}

TEST_CASE("hnsctl tables") {
  Hnsctl hnsctl;
  REQUIRE(hnsctl.run({"node", "host-gw", "--subnet", "10.244.1.0/24"}) == 0);
  REQUIRE(hnsctl.run({"network", "list"}) == 0);
  CHECK(hnsctl.out.text.rfind(
            "NAME  TYPE      SUBNETS        GATEWAYS    ID\ncbr0  L2Bridge  10.244.1.0/24  10.244.1.1  ", 0) == 0);
  REQUIRE(hnsctl.run({"endpoint", "list"}) == 0);
  CHECK(hnsctl.out.text.find("cbr0_ep  cbr0     10.244.1.2  00-15-5D-52-C0-00  -") != std::string::npos);
}

TEST_CASE("hnsctl namespace create, list and delete") {
  Hnsctl hnsctl;
  REQUIRE(hnsctl.run({"namespace", "create"}) == 0);
  std::string id = hnsctl.out.text;
  id.pop_back();
  REQUIRE(hns::Guid::parse(id));
  json listed = hnsctl.json_of({"namespace", "list", "--json"});
  CHECK(listed[0]["ID"] == id);
  REQUIRE(hnsctl.run({"namespace", "delete", id}) == 0);
  CHECK(hnsctl.run({"namespace", "delete", id}) == 1);
  CHECK(hnsctl.run({"namespace", "delete", "cbr0"}) == 2);
}

TEST_CASE("hnsctl version reports and, on the emulator, sets the HNS version") {
  Hnsctl hnsctl;
  json version = hnsctl.json_of({"version", "--json"});
  CHECK(version["Major"] == 15);
  CHECK(version["Features"].size() == hns::all_features().size());
  REQUIRE(hnsctl.run({"version", "--set", "10.2"}) == 0);
  CHECK(hnsctl.out.text.rfind("HNS 10.2", 0) == 0);
  CHECK(hnsctl.out.text.find("VxlanPort") == std::string::npos);
  CHECK(hnsctl.run({"version", "--set", "ten"}) == 2);
  REQUIRE(hnsctl.run({"version", "--reset"}) == 0);
  CHECK(hnsctl.out.text.rfind("HNS 15.4", 0) == 0);
}

TEST_CASE("hnsctl audit finds leaked and inconsistent objects") {
  Hnsctl hnsctl;
  REQUIRE(hnsctl.run({"node", "host-gw", "--subnet", "10.244.1.0/24"}) == 0);
  CHECK(hnsctl.run({"audit"}) == 0);
  CHECK(hnsctl.out.text == "no problems found\n");
  // What a crash between "create endpoint" and "attach" leaves behind.
  hns::HostComputeEndpoint leaked;
  leaked.name = "abc_cbr0";
  leaked.host_compute_network = hnsctl.client.find_network_by_name("cbr0")->id;
  leaked = hnsctl.client.create_endpoint(leaked);
  CHECK(hnsctl.run({"audit"}) == 1);
  CHECK(hnsctl.out.text ==
        "endpoint abc_cbr0 (" + leaked.id.str() + "): attached to no namespace, container or host\n");
  auto ns = hnsctl.client.create_namespace();
  hnsctl.client.attach_to_namespace(ns.id, leaked.id);
  CHECK(hnsctl.run({"audit", "--json"}) == 0);
  CHECK(json::parse(hnsctl.out.text) == json::array());
}

TEST_CASE("hnsctl lb list and show; audit reports a load balancer whose backend endpoint is gone") {
  Hnsctl hnsctl;
  REQUIRE(hnsctl.run({"node", "host-gw", "--subnet", "10.244.1.0/24"}) == 0);
  hns::HostComputeEndpoint pod;
  pod.name = "pod_cbr0";
  pod.host_compute_network = hnsctl.client.find_network_by_name("cbr0")->id;
  pod = hnsctl.client.create_endpoint(pod);
  auto ns = hnsctl.client.create_namespace();
  hnsctl.client.attach_to_namespace(ns.id, pod.id);
  // What kube-proxy's winkernel proxier makes for a ClusterIP service.
  const json settings = {{"HostComputeEndpoints", {pod.id.str()}},
                         {"FrontendVIPs", {"10.96.0.10"}},
                         {"PortMappings", {{{"Protocol", 17}, {"InternalPort", 53}, {"ExternalPort", 53}}}},
                         {"Flags", 1},
                         {"SchemaVersion", {{"Major", 2}, {"Minor", 0}}}};
  hns::HcnHandle handle = nullptr;
  const hns::HcnReply created =
      hnsctl.emulator->create(hns::HcnObject::LoadBalancer, nullptr, {}, settings.dump(), &handle);
  REQUIRE_MESSAGE(created.ok(), created.error_record);
  hnsctl.emulator->close(hns::HcnObject::LoadBalancer, handle);
  const json listed = hnsctl.json_of({"lb", "list", "--json"});
  REQUIRE(listed.size() == 1);
  const std::string lb = listed[0]["ID"];
  CHECK(listed[0]["FrontendVIPs"] == json::array({"10.96.0.10"}));
  REQUIRE(hnsctl.run({"lb", "list"}) == 0);
  CHECK(hnsctl.out.text.find("10.96.0.10") != std::string::npos);
  CHECK(hnsctl.out.text.find("UDP 53->53") != std::string::npos);
  CHECK(hnsctl.out.text.find("DSR") != std::string::npos);
  REQUIRE(hnsctl.run({"lb", "show", lb}) == 0);
  CHECK(hnsctl.out.text.find("backend " + pod.id.str() + ": pod_cbr0") != std::string::npos);
  CHECK(hnsctl.run({"audit"}) == 0);

  // The pod's DEL deletes its endpoint before kube-proxy's next sync.
  hnsctl.client.detach_from_namespace(ns.id, pod.id);
  REQUIRE(hnsctl.client.delete_endpoint(pod.id));
  REQUIRE(hnsctl.run({"lb", "list"}) == 0);
  CHECK(hnsctl.out.text.find("1 (1 gone)") != std::string::npos);
  REQUIRE(hnsctl.run({"lb", "show", lb}) == 0);
  CHECK(hnsctl.out.text.find("backend " + pod.id.str() + ": no such endpoint") != std::string::npos);
  // kube-proxy's to mend, at its next sync: a note, which fails no audit.
  CHECK(hnsctl.run({"audit"}) == 0);
  CHECK(hnsctl.out.text.find("note: load balancer " + lb + ": sends to endpoint " + pod.id.str() +
                             ", which does not exist") != std::string::npos);
  const json findings = hnsctl.json_of({"audit", "--json"});
  REQUIRE(findings.size() == 1);
  CHECK(findings[0]["Note"] == true);
  CHECK(hnsctl.run({"lb", "show", hns::Guid::generate().str()}) == 1);
  CHECK(hnsctl.run({"lb", "show", "not-a-guid"}) == 2);
}

TEST_CASE("hnsctl usage: help everywhere, clear errors, exit codes") {
  Hnsctl hnsctl;
  CHECK(hnsctl.run({}) == 2);
  CHECK(hnsctl.run({"--help"}) == 0);
  CHECK(hnsctl.out.text.find("node host-gw") != std::string::npos);
  for (const auto& command : hnsctl::all_commands()) {
    CHECK(hnsctl.run({std::string(command.group), std::string(command.verb), "--help"}) == 0);
    CHECK(hnsctl.out.text.find("Usage:") != std::string::npos);
  }
  CHECK(hnsctl.run({"network", "--help"}) == 0);
  CHECK(hnsctl.run({"audit", "--help"}) == 0);
  CHECK(hnsctl.run({"frobnicate"}) == 2);
  CHECK(hnsctl.run({"network", "frobnicate"}) == 2);
  CHECK(hnsctl.run({"network", "list", "--yaml"}) == 2);
  CHECK(hnsctl.run({"network", "list", "extra"}) == 2);
  CHECK(hnsctl.run({"node", "host-gw"}) == 2);
  CHECK(hnsctl.err.text.find("--subnet is required") != std::string::npos);
  CHECK(hnsctl.run({"node", "host-gw", "--subnet", "10.244.1.0/31"}) == 2);
  CHECK(hnsctl.run({"node", "host-gw", "--subnet", "fd00::/64"}) == 2);
  CHECK(hnsctl.run({"node", "host-gw", "--subnet", "10.244.1.0/24", "--management-ip", "x"}) == 2);
}
