// HNSCall (v1) against the emulator: the same store as HCN, v1 shapes, v1
// ways of failing.

#include "emulator_fixture.hpp"

using namespace hns_test;
namespace hr = wincni::hns::hr;

TEST_CASE("what v1 creates, v2 lists, and back") {
  EmulatorFixture fx;
  json created = fx.call("POST", "/networks/", R"({"Name":"cbr0","Type":"L2Bridge",
      "Subnets":[{"AddressPrefix":"10.244.1.0/24","GatewayAddress":"10.244.1.1"}]})");
  REQUIRE(created["Success"] == true);
  std::string id = created["Output"]["ID"];
  CHECK(created["Output"]["ManagementIP"] == "192.0.2.4");
  CHECK(fx.enumerate(HcnObject::Network, {{"Name", "cbr0"}}) == json::array({id}));

  Guid v2_network =
      fx.network(R"({"Name":"other","Type":"L2Tunnel","Ipams":[{"Subnets":[{"IpAddressPrefix":"10.1.0.0/16",
      "Routes":[{"NextHop":"10.1.0.1","DestinationPrefix":"0.0.0.0/0"}]}]}],"SchemaVersion":{"Major":2}})");
  json listed = fx.call("GET", "/networks/")["Output"];
  REQUIRE(listed.size() == 2);
  CHECK(listed[1]["ID"] == v2_network.str());
  CHECK(listed[1]["Type"] == "L2Tunnel");
  CHECK(listed[1]["Subnets"][0] == json::parse(R"({"AddressPrefix":"10.1.0.0/16","GatewayAddress":"10.1.0.1"})"));
}

TEST_CASE("v1 endpoints: create with an IP and gateway, read back what CNI's result builder needs") {
  EmulatorFixture fx;
  Guid network = fx.network();
  json created = fx.call("POST", "/endpoints/",
                         R"({"Name":"abc_cbr0","VirtualNetwork":")" + network.str() +
                             R"(","IPAddress":"10.244.1.5","GatewayAddress":"10.244.1.2",
      "DNSServerList":"10.96.0.10","DNSSuffix":"svc.cluster.local",
      "Policies":[{"Type":"OutBoundNAT","ExceptionList":["10.244.0.0/16"]}]})");
  REQUIRE(created["Success"] == true);
  json endpoint = created["Output"];
  CHECK(endpoint["IPAddress"] == "10.244.1.5");
  CHECK(endpoint["GatewayAddress"] == "10.244.1.2");
  CHECK(endpoint["PrefixLength"] == 24);
  CHECK(endpoint["MacAddress"] == "00-15-5D-52-C0-00");
  CHECK(endpoint["VirtualNetworkName"] == "cbr0");
  CHECK(endpoint["DNSServerList"] == "10.96.0.10");
  CHECK(endpoint["DNSSuffix"] == "svc.cluster.local");
  CHECK(endpoint["Policies"][0] == json::parse(R"({"Type":"OutBoundNAT","ExceptionList":["10.244.0.0/16"]})"));
  CHECK(endpoint["State"] == 1);
  json v2 = fx.get(HcnObject::Endpoint, *Guid::parse(endpoint["ID"].get<std::string>()));
  CHECK(v2["Policies"][0] == json::parse(R"({"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.0/16"]}})"));
  CHECK(v2["Routes"][0]["NextHop"] == "10.244.1.2");
}

TEST_CASE("a missing object is Success:false with HNS's text, not a failed call") {
  EmulatorFixture fx;
  HResult code = 0;
  json missing = fx.call("DELETE", "/endpoints/" + Guid::generate().str(), "", &code);
  CHECK(code == hr::kOk);
  CHECK(missing == json::parse(R"({"Success":false,"Error":"The endpoint was not found. "})"));
  CHECK(fx.call("GET", "/networks/" + Guid::generate().str())["Error"] == "The network was not found. ");
  CHECK(fx.call("GET", "/namespaces/" + Guid::generate().str())["Error"] == "Element not found. ");
  // But an endpoint posted onto a missing network fails the call, as
  // Windows does ("hnsCall failed in Win32: Element not found. (0x490)").
  const std::string orphan = R"({"Name":"orphan","VirtualNetwork":")" + Guid::generate().str() + R"("})";
  CHECK(fx.call("POST", "/endpoints/", orphan, &code).is_null());
  CHECK(code == hr::kElementNotFound);
}

TEST_CASE("a duplicate network name fails the call itself") {
  EmulatorFixture fx;
  std::string body =
      R"({"Name":"cbr0","Type":"L2Bridge","Subnets":[{"AddressPrefix":"10.244.1.0/24","GatewayAddress":"10.244.1.1"}]})";
  REQUIRE(fx.call("POST", "/networks/", body)["Success"] == true);
  HResult code = 0;
  CHECK(fx.call("POST", "/networks/", body, &code).is_null());
  CHECK(code == hr::kNetworkAlreadyExists);
}

TEST_CASE("v1 attach records containers and the host, once each") {
  EmulatorFixture fx;
  Guid network = fx.network();
  json endpoint =
      fx.call("POST", "/endpoints/",
              R"({"Name":"cbr0_ep","VirtualNetwork":")" + network.str() + R"(","IPAddress":"10.244.1.2"})")["Output"];
  std::string path = "/endpoints/" + endpoint["ID"].get<std::string>();
  json host_attach = fx.call("POST", path + "/attach", R"({"SystemType":"Host","CompartmentId":1})");
  CHECK(host_attach["Output"]["State"] == 2);
  HResult code = 0;
  fx.call("POST", path + "/attach", R"({"SystemType":"Host","CompartmentId":1})", &code);
  CHECK(code == hr::kEndpointAlreadyAttached);

  json attached = fx.call("POST", path + "/attach", R"({"ContainerId":"pause1","SystemType":"Container"})");
  CHECK(attached["Output"]["SharedContainers"] == json::array({"pause1"}));
  fx.call("POST", path + "/attach", R"({"ContainerId":"PAUSE1","SystemType":"Container"})", &code);
  CHECK(code == hr::kEndpointAlreadyAttached);
  json sharing = fx.call("POST", path + "/attach", R"({"ContainerId":"app2","SystemType":"Container"})");
  CHECK(sharing["Output"]["State"] == 3);
  fx.call("POST", path + "/detach", R"({"ContainerId":"pause1","SystemType":"Container"})", &code);
  CHECK(code == hr::kOk);
  fx.call("POST", path + "/detach", R"({"ContainerId":"pause1","SystemType":"Container"})", &code);
  CHECK(code == hr::kEndpointNotAttached);
  fx.call("POST", path + "/attach", R"({"SystemType":"Container"})", &code);
  CHECK(code == hr::kInvalidJson);
}

TEST_CASE("v1 namespaces: create, add and remove an endpoint, seen from HCN") {
  EmulatorFixture fx;
  Guid network = fx.network();
  Guid endpoint;
  REQUIRE(fx.endpoint(network, R"({"Name":"ep","SchemaVersion":{"Major":2}})", &endpoint).ok());
  json ns = fx.call("POST", "/namespaces/", R"({"IsDefault":false})")["Output"];
  std::string path = "/namespaces/" + ns["ID"].get<std::string>();
  std::string resource = R"({"Type":"Endpoint","Data":{"Id":")" + endpoint.str() + R"("}})";
  json added = fx.call("POST", path + "/addresource", resource);
  CHECK(added["Output"]["ResourceList"][0]["Data"]["Id"] == endpoint.str());
  CHECK(fx.get(HcnObject::Endpoint, endpoint)["HostComputeNamespace"] == ns["ID"]);
  CHECK(fx.call("POST", path + "/removeresource", resource)["Success"] == true);
  CHECK(fx.call("DELETE", path)["Success"] == true);
  CHECK(fx.call("GET", path)["Success"] == false);
}

TEST_CASE("v1 endpoint update replaces its policies, validated") {
  EmulatorFixture fx;
  Guid network = fx.network();
  Guid endpoint;
  REQUIRE(fx.endpoint(network, R"({"Name":"ep","SchemaVersion":{"Major":2}})", &endpoint).ok());
  std::string path = "/endpoints/" + endpoint.str();
  json updated =
      fx.call("POST", path, R"({"Policies":[{"Type":"ACL","Action":"Allow","Direction":"In","Priority":200}]})");
  CHECK(updated["Output"]["Policies"][0]["Action"] == "Allow");
  HResult code = 0;
  fx.call("POST", path, R"({"Policies":[{"Type":"Mystery"}]})", &code);
  CHECK(code == hr::kInvalidPolicyType);
}

TEST_CASE("version, stats, and requests the emulator does not serve") {
  EmulatorFixture fx;
  CHECK(fx.call("GET", "/globals/version") == json::parse(R"({"Success":true,"Output":{"Major":15,"Minor":4}})"));
  Guid network = fx.network();
  Guid endpoint;
  REQUIRE(fx.endpoint(network, R"({"Name":"ep","SchemaVersion":{"Major":2}})", &endpoint).ok());
  CHECK(fx.call("GET", "/endpointstats/" + endpoint.str())["Output"]["PacketsSent"] == 0);
  HResult code = 0;
  fx.call("GET", "/policylists/", "", &code);
  CHECK(code == hr::kRequestUnsupported);
  fx.call("GET", "/endpoints/not-a-guid", "", &code);
  CHECK(code == hr::kGuidConversionFailure);
  fx.call("POST", "/networks/", "{broken", &code);
  CHECK(code == hr::kInvalidJson);
  fx.call("PATCH", "/networks/", "", &code);
  CHECK(code == hr::kRequestUnsupported);
}

// Found by tests/fuzz (emulator): the journal's copy of a request nested
// 200000 levels deep overflowed the stack before any HNS code saw it.
TEST_CASE("a request nested too deeply fails the call, the emulator keeps running") {
  EmulatorFixture fx;
  const std::string deep = R"({"Name":"n","x":)" + std::string(200'000, '[') + std::string(200'000, ']') + "}";
  HResult code = 0;
  json answer = fx.call("POST", "/networks/", deep, &code);
  CHECK(wincni::hns::failed(code));
  CHECK(answer.is_null());
  HcnHandle handle = nullptr;
  CHECK(wincni::hns::failed(fx.emulator.create(HcnObject::Network, nullptr, Guid{}, deep, &handle).hr));
  CHECK(handle == nullptr);
}
