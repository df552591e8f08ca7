// The emulator's networks: GUID rules, filters, validation codes, what HNS
// adds on its own (management IP, provider address, DR MAC).

#include "emulator_fixture.hpp"

using namespace hns_test;
namespace hr = wincni::hns::hr;

TEST_CASE("a network created with GUID_NULL gets a generated upper-case ID") {
  EmulatorFixture fx;
  Guid id = fx.network();
  CHECK_FALSE(id.is_null());
  json network = fx.get(HcnObject::Network, id);
  CHECK(network["ID"] == id.str());
  CHECK(network["Name"] == "cbr0");
  CHECK(network["Type"] == "L2Bridge");
  CHECK(network["Ipams"][0]["Subnets"][0]["IpAddressPrefix"] == "10.244.1.0/24");
  CHECK(network["Flags"] == 0);
}

TEST_CASE("a network created with a GUID keeps it, and the same GUID again is refused") {
  EmulatorFixture fx;
  Guid wanted = *Guid::parse("0a1b2c3d-1111-4222-8333-444455556666");
  Guid id;
  REQUIRE(fx.create(HcnObject::Network, kBridgeNetwork, &id, nullptr, wanted).ok());
  CHECK(id == wanted);
  json renamed = json::parse(kBridgeNetwork);
  renamed["Name"] = "other";
  HcnReply again = fx.create(HcnObject::Network, renamed.dump(), nullptr, nullptr, wanted);
  CHECK(again.hr == hr::kNetworkAlreadyExists);
}

TEST_CASE("a duplicate network name fails with HCN_E_NETWORK_ALREADY_EXISTS and an error record") {
  EmulatorFixture fx;
  fx.network();
  HcnReply reply = fx.create(HcnObject::Network, kBridgeNetwork);
  CHECK(reply.hr == hr::kNetworkAlreadyExists);
  CHECK(record_code(reply) == hr::kNetworkAlreadyExists);
  CHECK(json::parse(reply.error_record)["Error"] == "A network with this name already exists. ");
  CHECK(fx.enumerate(HcnObject::Network).size() == 1);
}

TEST_CASE("enumerate returns GUID strings and honours the Name and ID filters") {
  EmulatorFixture fx;
  CHECK(fx.enumerate(HcnObject::Network) == json::array());
  Guid a = fx.network();
  json second = json::parse(kBridgeNetwork);
  second["Name"] = "second";
  second["Ipams"][0]["Subnets"][0]["IpAddressPrefix"] = "10.244.2.0/24";
  second["Ipams"][0]["Subnets"][0]["Routes"][0]["NextHop"] = "10.244.2.1";
  Guid b = fx.network(second.dump());
  CHECK(fx.enumerate(HcnObject::Network) == json::array({a.str(), b.str()}));
  CHECK(fx.enumerate(HcnObject::Network, {{"Name", "second"}}) == json::array({b.str()}));
  CHECK(fx.enumerate(HcnObject::Network, {{"Name", "missing"}}) == json::array());
  std::string lower = a.str();
  for (auto& c : lower) c = static_cast<char>(std::tolower(c));
  CHECK(fx.enumerate(HcnObject::Network, {{"ID", lower}}) == json::array({a.str()}));
}

TEST_CASE("the empty query and a query with a filter are both accepted by QueryProperties") {
  EmulatorFixture fx;
  Guid id = fx.network();
  HcnHandle handle = nullptr;
  REQUIRE(fx.emulator.open(HcnObject::Network, id, &handle).ok());
  CHECK(fx.emulator
            .query_properties(HcnObject::Network, handle,
                              R"({"SchemaVersion":{"Major":2,"Minor":0},"Filter":"{\"Name\":\"x\"}"})")
            .ok());
  CHECK(fx.emulator.query_properties(HcnObject::Network, handle, "{oops").hr == hr::kInvalidJson);
  fx.emulator.close(HcnObject::Network, handle);
}

TEST_CASE("network validation answers with the HCN_E code HNS uses") {
  EmulatorFixture fx;
  auto code_of = [&](const std::string& settings) { return fx.create(HcnObject::Network, settings).hr; };
  CHECK(code_of("{not json") == hr::kInvalidJson);
  CHECK(code_of(R"(["array"])") == hr::kInvalidJson);
  CHECK(code_of(R"({"Name":"x","Type":"Bridge","SchemaVersion":{"Major":2}})") == hr::kInvalidNetworkType);
  CHECK(code_of(R"({"Type":"L2Bridge","SchemaVersion":{"Major":2}})") == hr::kInvalidNetwork);
  CHECK(code_of(R"({"Name":"x","Policies":[{"Type":"Warp","Settings":{}}],"SchemaVersion":{"Major":2}})") ==
        hr::kInvalidPolicyType);
  CHECK(
      code_of(
          R"({"Name":"x","Policies":[{"Type":"PortMapping","Settings":{"InternalPort":1}}],"SchemaVersion":{"Major":2}})") ==
      hr::kInvalidPolicyType);
  CHECK(code_of(
            R"({"Name":"x","Policies":[{"Type":"VxlanPort","Settings":{"Port":"x"}}],"SchemaVersion":{"Major":2}})") ==
        hr::kInvalidPolicy);
  CHECK(
      code_of(
          R"({"Name":"x","Policies":[{"Type":"DrMacAddress","Settings":{"Address":"zz"}}],"SchemaVersion":{"Major":2}})") ==
      hr::kInvalidPolicy);
  CHECK(code_of(
            R"({"Name":"x","Ipams":[{"Subnets":[{"IpAddressPrefix":"10.0.0.5/24"}]}],"SchemaVersion":{"Major":2}})") ==
        hr::kInvalidPrefix);
  CHECK(
      code_of(R"({"Name":"x","Ipams":[{"Subnets":[{"IpAddressPrefix":"10.0.0/24"}]}],"SchemaVersion":{"Major":2}})") ==
      hr::kInvalidPrefix);
  CHECK(code_of(R"({"Name":"x","Ipams":[{"Subnets":[{"IpAddressPrefix":"10.0.0.0/24",
      "Routes":[{"NextHop":"10.0.1.1","DestinationPrefix":"0.0.0.0/0"}]}]}],"SchemaVersion":{"Major":2}})") ==
        hr::kInvalidSubnet);
  CHECK(code_of(
            R"({"Name":"x","Ipams":[{"Subnets":[{"IpAddressPrefix":"10.0.0.0/16"},{"IpAddressPrefix":"10.0.1.0/24"}]}],
      "SchemaVersion":{"Major":2}})") == hr::kInvalidSubnet);
  CHECK(code_of(R"({"Name":"x","Type":"Overlay","Ipams":[{"Subnets":[{"IpAddressPrefix":"10.0.0.0/24"}]}],
      "SchemaVersion":{"Major":2}})") == hr::kInvalidSubnet);
  CHECK(code_of(R"({"Name":"x","Type":"Overlay","Ipams":[{"Subnets":[{"IpAddressPrefix":"10.0.0.0/24",
      "Policies":[{"Type":"VSID","Settings":{"IsolationId":4095}}]}]}],"SchemaVersion":{"Major":2}})") ==
        hr::kInvalidPolicy);
  CHECK(code_of(R"({"Name":"x","Policies":[{"Type":"NetAdapterName","Settings":{"NetworkAdapterName":"Wi-Fi"}}],
      "SchemaVersion":{"Major":2}})") == hr::kAdapterNotFound);
  CHECK(
      code_of(
          R"({"Name":"x","MacPool":{"Ranges":[{"StartMacAddress":"00-15-5D-00-00-09","EndMacAddress":"00-15-5D-00-00-01"}]},
      "SchemaVersion":{"Major":2}})") == hr::kInvalidNetwork);
  CHECK(fx.enumerate(HcnObject::Network) == json::array());
}

TEST_CASE("an Overlay network gets the management IP, provider address and DR MAC from HNS") {
  EmulatorFixture fx;
  Guid id = fx.network(R"({"Name":"vxlan0","Type":"Overlay","Flags":8,
    "Policies":[{"Type":"NetAdapterName","Settings":{"NetworkAdapterName":"ethernet"}},
                {"Type":"VxlanPort","Settings":{"Port":4789}}],
    "Ipams":[{"Type":"Static","Subnets":[{"IpAddressPrefix":"10.244.1.0/24",
      "Policies":[{"Type":"VSID","Settings":{"IsolationId":4096}}],
      "Routes":[{"NextHop":"10.244.1.1","DestinationPrefix":"0.0.0.0/0"}]}]}],
    "SchemaVersion":{"Major":2,"Minor":0}})");
  json network = fx.get(HcnObject::Network, id);
  CHECK(network["Flags"] == 8);
  bool provider = false;
  bool router_mac = false;
  for (const auto& policy : network["Policies"]) {
    if (policy["Type"] == "ProviderAddress") provider = policy["Settings"]["ProviderAddress"] == "192.0.2.4";
    if (policy["Type"] == "DrMacAddress") {
      router_mac = policy["Settings"]["Address"].get<std::string>().rfind("00-15-5D-", 0) == 0;
    }
  }
  CHECK(provider);
  CHECK(router_mac);
  json v1 = fx.call("GET", "/networks/" + id.str());
  CHECK(v1["Output"]["ManagementIP"] == "192.0.2.4");
  CHECK(v1["Output"]["NetworkAdapterName"] == "ethernet");
  CHECK(v1["Output"]["Subnets"][0]["Policies"][0] == json::parse(R"({"Type":"VSID","VSID":4096})"));
}

TEST_CASE("an old HNS refuses what it does not have yet") {
  EmulatorConfig config;
  config.hns_version = wincni::hns::HnsVersion{10, 2};
  EmulatorFixture fx(config);
  HcnReply vxlan_port =
      fx.create(HcnObject::Network, R"({"Name":"x","Policies":[{"Type":"VxlanPort","Settings":{"Port":4789}}],
      "SchemaVersion":{"Major":2}})");
  CHECK(vxlan_port.hr == hr::kInvalidPolicyType);
  HcnReply dual = fx.create(HcnObject::Network, R"({"Name":"x","Ipams":[{"Subnets":[{"IpAddressPrefix":"fd00::/64"}]}],
      "SchemaVersion":{"Major":2}})");
  CHECK(dual.hr == hr::kInvalidSubnet);
  CHECK(fx.call("GET", "/globals/version")["Output"] == json::parse(R"({"Major":10,"Minor":2})"));

  config.hns_version = wincni::hns::HnsVersion{7, 2};
  EmulatorFixture rs1803(config);
  CHECK(rs1803.emulator.enumerate(HcnObject::Network, "").hr == hr::kProcNotFound);
  HResult code = 0;
  CHECK(rs1803.call("GET", "/networks/", "", &code)["Success"] == true);
}

TEST_CASE("the version stored by hnsctl is what HNS reports, unless the environment says otherwise") {
  EmulatorFixture fx;
  CHECK(fx.emulator.hns_version() == wincni::hns::HnsVersion{15, 4});
  fx.emulator.store_hns_version(wincni::hns::HnsVersion{13, 2});
  CHECK(fx.call("GET", "/globals/version")["Output"] == json::parse(R"({"Major":13,"Minor":2})"));
  EmulatorConfig config = config_for(fx.dir.path());
  config.hns_version = wincni::hns::HnsVersion{11, 0};
  Emulator overridden(config);
  CHECK(overridden.hns_version() == wincni::hns::HnsVersion{11, 0});
}

TEST_CASE("opening, querying and deleting a missing network: HCN_E_NETWORK_NOT_FOUND") {
  EmulatorFixture fx;
  Guid missing = Guid::generate();
  HcnHandle handle = nullptr;
  HcnReply open = fx.emulator.open(HcnObject::Network, missing, &handle);
  CHECK(open.hr == hr::kNetworkNotFound);
  CHECK(handle == nullptr);
  CHECK(record_code(open) == hr::kNetworkNotFound);
  CHECK(fx.emulator.remove(HcnObject::Network, missing).hr == hr::kNetworkNotFound);
}

TEST_CASE("a handle outlives its object: queries through it then fail as not found") {
  EmulatorFixture fx;
  Guid id = fx.network();
  HcnHandle handle = nullptr;
  REQUIRE(fx.emulator.open(HcnObject::Network, id, &handle).ok());
  REQUIRE(fx.emulator.remove(HcnObject::Network, id).ok());
  CHECK(fx.emulator.query_properties(HcnObject::Network, handle, "").hr == hr::kNetworkNotFound);
  fx.emulator.close(HcnObject::Network, handle);
  int not_a_handle = 0;
  CHECK(fx.emulator.query_properties(HcnObject::Network, &not_a_handle, "").hr == hr::kInvalidHandle);
}

TEST_CASE("settings without a SchemaVersion are the v1 schema") {
  EmulatorFixture fx;
  Guid id;
  REQUIRE(fx.create(HcnObject::Network, R"({"Name":"cbr0","Type":"L2Bridge",
      "Subnets":[{"AddressPrefix":"10.244.1.0/24","GatewayAddress":"10.244.1.1"}]})",
                    &id)
              .ok());
  json network = fx.get(HcnObject::Network, id);
  CHECK(network["Ipams"][0]["Subnets"][0]["Routes"][0]["NextHop"] == "10.244.1.1");
}

TEST_CASE("network policies can be added and removed with HcnModifyNetwork") {
  EmulatorFixture fx;
  Guid id = fx.network();
  HcnHandle handle = nullptr;
  REQUIRE(fx.emulator.open(HcnObject::Network, id, &handle).ok());
  std::string add =
      R"({"ResourceType":"Policy","RequestType":"Add","Settings":{"Policies":[{"Type":"HostRoute","Settings":{}}]}})";
  CHECK(fx.emulator.modify(HcnObject::Network, handle, add).ok());
  CHECK(fx.emulator.modify(HcnObject::Network, handle, add).hr == hr::kPolicyAlreadyExists);
  CHECK(fx.properties(HcnObject::Network, handle)["Policies"][0]["Type"] == "HostRoute");
  std::string remove =
      R"({"ResourceType":"Policy","RequestType":"Remove","Settings":{"Policies":[{"Type":"HostRoute"}]}})";
  CHECK(fx.emulator.modify(HcnObject::Network, handle, remove).ok());
  CHECK(fx.emulator.modify(HcnObject::Network, handle, remove).hr == hr::kPolicyNotFound);
  CHECK(fx.emulator.modify(HcnObject::Network, handle, R"({"ResourceType":"Extension","RequestType":"Add"})").hr ==
        hr::kRequestUnsupported);
  CHECK(fx.emulator
            .modify(HcnObject::Network, handle, R"({"ResourceType":"DNS","RequestType":"Update",
      "Settings":{"ServerList":["10.96.0.10"]}})")
            .ok());
  CHECK(fx.properties(HcnObject::Network, handle)["Dns"]["ServerList"][0] == "10.96.0.10");
  fx.emulator.close(HcnObject::Network, handle);
}
