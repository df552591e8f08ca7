// The emulator's endpoints: HNS-side IPAM, the MAC pool, address rules,
// policy validation and port mappings.

#include <algorithm>
#include <cstdlib>
#include <set>
#include <tuple>

#include "emulator_fixture.hpp"

using namespace hns_test;
namespace hr = wincni::hns::hr;

namespace {

std::string with_ip(const std::string& ip, const std::string& extra = "") {
  return R"({"Name":"ep","IpConfigurations":[{"IpAddress":")" + ip + R"("}])" + extra +
         R"(,"SchemaVersion":{"Major":2,"Minor":0}})";
}

constexpr const char* kNoAddress = R"({"Name":"ep","SchemaVersion":{"Major":2,"Minor":0}})";

}  // namespace

TEST_CASE("HNS IPAM hands out the next free address, skipping the gateway, and a MAC from the pool") {
  EmulatorFixture fx;
  Guid network = fx.network();
  Guid first;
  Guid second;
  REQUIRE(fx.endpoint(network, kNoAddress, &first).ok());
  REQUIRE(fx.endpoint(network, kNoAddress, &second).ok());
  json a = fx.get(HcnObject::Endpoint, first);
  json b = fx.get(HcnObject::Endpoint, second);
  CHECK(a["IpConfigurations"][0] == json::parse(R"({"IpAddress":"10.244.1.2","PrefixLength":24})"));
  CHECK(b["IpConfigurations"][0]["IpAddress"] == "10.244.1.3");
  CHECK(a["MacAddress"] == "00-15-5D-52-C0-00");
  CHECK(b["MacAddress"] == "00-15-5D-52-C0-01");
  CHECK(a["Routes"][0] == json::parse(R"({"NextHop":"10.244.1.1","DestinationPrefix":"0.0.0.0/0"})"));
  CHECK(a["HostComputeNetwork"] == network.str());
  CHECK(a["HostComputeNamespace"] == "00000000-0000-0000-0000-000000000000");
}

TEST_CASE("a freed address and MAC are handed out again") {
  EmulatorFixture fx;
  Guid network = fx.network();
  Guid first;
  REQUIRE(fx.endpoint(network, kNoAddress, &first).ok());
  REQUIRE(fx.endpoint(network, kNoAddress).ok());
  REQUIRE(fx.emulator.remove(HcnObject::Endpoint, first).ok());
  Guid third;
  REQUIRE(fx.endpoint(network, kNoAddress, &third).ok());
  json c = fx.get(HcnObject::Endpoint, third);
  CHECK(c["IpConfigurations"][0]["IpAddress"] == "10.244.1.2");
  CHECK(c["MacAddress"] == "00-15-5D-52-C0-00");
}

TEST_CASE("random picks: HNS-assigned addresses and MACs are free, usable and not the lowest in turn") {
  EmulatorConfig config;
  config.hns_picks = wincni::hns::emulator::PickOrder::Random;
  EmulatorFixture fx(config);
  Guid network = fx.network();
  std::set<std::string> addresses;
  std::set<std::string> macs;
  for (int i = 0; i < 40; ++i) {
    Guid id;
    REQUIRE(fx.endpoint(network, kNoAddress, &id).ok());
    json endpoint = fx.get(HcnObject::Endpoint, id);
    const std::string address = endpoint["IpConfigurations"][0]["IpAddress"];
    CHECK(address.starts_with("10.244.1."));
    CHECK(address != "10.244.1.0");
    CHECK(address != "10.244.1.1");  // the gateway
    CHECK(address != "10.244.1.255");
    addresses.insert(address);
    macs.insert(endpoint["MacAddress"]);
  }
  CHECK(addresses.size() == 40);
  CHECK(macs.size() == 40);
  // The lowest 40 free ones in turn would be .2 to .41; random starts over
  // 253 free addresses land there all 40 times with no real chance.
  CHECK_FALSE(std::all_of(addresses.begin(), addresses.end(), [](const std::string& address) {
    const int last = std::stoi(address.substr(address.rfind('.') + 1));
    return last >= 2 && last <= 41;
  }));
}

TEST_CASE("a requested address is checked against the network's subnets") {
  EmulatorFixture fx;
  Guid network = fx.network();
  // flanneld's host endpoint holds .2.
  REQUIRE(fx.endpoint(network, with_ip("10.244.1.2")).ok());
  CHECK(fx.endpoint(network, with_ip("10.244.1.2")).hr == hr::kAddrInvalidOrReserved);
  CHECK(fx.endpoint(network, with_ip("10.244.2.5")).hr == hr::kInvalidIp);
  CHECK(fx.endpoint(network, with_ip("10.244.1.1")).hr == hr::kAddrInvalidOrReserved);
  CHECK(fx.endpoint(network, with_ip("10.244.1.0")).hr == hr::kAddrInvalidOrReserved);
  CHECK(fx.endpoint(network, with_ip("10.244.1.255")).hr == hr::kAddrInvalidOrReserved);
  CHECK(fx.endpoint(network, with_ip("10.244.1.300")).hr == hr::kInvalidIp);
  // HNS IPAM steps around the taken .2.
  Guid assigned;
  REQUIRE(fx.endpoint(network, kNoAddress, &assigned).ok());
  CHECK(fx.get(HcnObject::Endpoint, assigned)["IpConfigurations"][0]["IpAddress"] == "10.244.1.3");
}

TEST_CASE("the same address on two networks is fine") {
  EmulatorFixture fx;
  Guid one = fx.network();
  json other = json::parse(kBridgeNetwork);
  other["Name"] = "cbr1";
  Guid two = fx.network(other.dump());
  CHECK(fx.endpoint(one, with_ip("10.244.1.7")).ok());
  CHECK(fx.endpoint(two, with_ip("10.244.1.7")).ok());
}

TEST_CASE("a full subnet and a network without subnets") {
  EmulatorFixture fx;
  Guid tiny = fx.network(R"({"Name":"tiny","Ipams":[{"Subnets":[{"IpAddressPrefix":"10.9.0.0/30",
      "Routes":[{"NextHop":"10.9.0.1","DestinationPrefix":"0.0.0.0/0"}]}]}],"SchemaVersion":{"Major":2}})");
  REQUIRE(fx.endpoint(tiny, kNoAddress).ok());  // .2 is the only one
  CHECK(fx.endpoint(tiny, kNoAddress).hr == hr::kNoMoreItems);
  Guid bare = fx.network(R"({"Name":"bare","Type":"Transparent","SchemaVersion":{"Major":2}})");
  CHECK(fx.endpoint(bare, kNoAddress).hr == hr::kSubnetNotFound);
}

TEST_CASE("a dual-stack network gives an endpoint one address of each family") {
  EmulatorFixture fx;
  Guid network = fx.network(R"({"Name":"dual","Type":"L2Bridge","Ipams":[{"Subnets":[
      {"IpAddressPrefix":"10.244.1.0/24","Routes":[{"NextHop":"10.244.1.1","DestinationPrefix":"0.0.0.0/0"}]},
      {"IpAddressPrefix":"fd00:1::/64","Routes":[{"NextHop":"fd00:1::1","DestinationPrefix":"::/0"}]}]}],
      "SchemaVersion":{"Major":2}})");
  Guid id;
  REQUIRE(fx.endpoint(network, kNoAddress, &id).ok());
  json endpoint = fx.get(HcnObject::Endpoint, id);
  REQUIRE(endpoint["IpConfigurations"].size() == 2);
  CHECK(endpoint["IpConfigurations"][1] == json::parse(R"({"IpAddress":"fd00:1::2","PrefixLength":64})"));
  json v1 = fx.call("GET", "/endpoints/" + id.str())["Output"];
  CHECK(v1["IPv6Address"] == "fd00:1::2");
  CHECK(v1["IPAddress"] == "10.244.1.2");
}

TEST_CASE("a given MAC is echoed as sent, as HNS does; a bad one is HCN_E_INVALID_ENDPOINT") {
  EmulatorFixture fx;
  Guid network = fx.network();
  Guid id;
  REQUIRE(
      fx.endpoint(network, R"({"Name":"ep","MacAddress":"0e-2A-0a-f4-01-05","SchemaVersion":{"Major":2}})", &id).ok());
  CHECK(fx.get(HcnObject::Endpoint, id)["MacAddress"] == "0e-2A-0a-f4-01-05");
  CHECK(fx.endpoint(network, R"({"Name":"ep","MacAddress":"nope","SchemaVersion":{"Major":2}})").hr ==
        hr::kInvalidEndpoint);
}

TEST_CASE("endpoint policies are validated") {
  EmulatorFixture fx;
  Guid network = fx.network();
  auto code_of = [&](const std::string& policies) {
    return fx.endpoint(network, R"({"Name":"ep","Policies":)" + policies + R"(,"SchemaVersion":{"Major":2}})").hr;
  };
  CHECK(code_of(R"([{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.0/16"]}}])") == hr::kOk);
  CHECK(code_of(R"([{"Type":"Hyperdrive","Settings":{}}])") == hr::kInvalidPolicyType);
  CHECK(code_of(R"([{"Type":"VxlanPort","Settings":{"Port":4789}}])") == hr::kInvalidPolicyType);
  CHECK(code_of(R"([{"Type":"OutBoundNAT","Settings":{"Exceptions":"10.244.0.0/16"}}])") == hr::kInvalidPolicy);
  CHECK(code_of(R"([{"Type":"OutBoundNAT","Settings":{"Exceptions":["ten"]}}])") == hr::kInvalidPolicy);
  CHECK(code_of(R"([{"Type":"PortMapping","Settings":{"InternalPort":80,"ExternalPort":8080,"Protocol":132}}])") ==
        hr::kInvalidPolicy);
  CHECK(code_of(R"([{"Type":"PortMapping","Settings":{"ExternalPort":8080,"Protocol":6}}])") ==
        hr::kInvalidInternalPort);
  CHECK(code_of(R"([{"Type":"ProviderAddress","Settings":{}}])") == hr::kInvalidPolicy);
  CHECK(code_of(R"("not a list")") == hr::kInvalidJson);
}

TEST_CASE("prefixes with host bits: accepted by default (Server 2019), refused as a 2022 host did when asked") {
  const std::string exception = R"([{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.1/16"]}}])";
  const std::string route = R"([{"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.96.0.1/12"}}])";
  const std::string networks = R"([{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.0/16","10.0.0.5"]}},)"
                               R"({"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.96.0.0/12"}}])";
  for (const bool refuse : {false, true}) {
    CAPTURE(refuse);
    EmulatorConfig config;
    config.refuse_prefix_host_bits = refuse;
    EmulatorFixture fx(config);
    Guid network = fx.network();
    auto reply_of = [&](const std::string& policies) {
      return fx.endpoint(network, R"({"Name":"ep","Policies":)" + policies + R"(,"SchemaVersion":{"Major":2}})");
    };
    const HcnReply with_exception = reply_of(exception);
    CHECK(with_exception.hr == (refuse ? hr::kInvalidPolicy : hr::kOk));
    // The text a 2022 node gave (hcsshim issue 1951), without the detail.
    if (refuse)
      CHECK(with_exception.error_record.find("The provided policy configuration is invalid") != std::string::npos);
    CHECK(reply_of(route).hr == (refuse ? hr::kInvalidPolicy : hr::kOk));
    CHECK(reply_of(networks).hr == hr::kOk);
  }
}

TEST_CASE("WINCNI_EMULATOR_PREFIX_HOST_BITS: accept, refuse, or a problem naming it") {
  for (const auto& row :
       {std::tuple{"accept", false, false}, std::tuple{"refuse", true, false}, std::tuple{"strict", false, true}}) {
    // Named copies, not structured bindings: clang 14 cannot capture those.
    const auto& [value, refuse, problem] = row;
    const char* const setting = value;
    CAPTURE(setting);
    ::setenv("WINCNI_EMULATOR_PREFIX_HOST_BITS", value, 1);
    const EmulatorConfig config = EmulatorConfig::from_environment();
    CHECK(config.refuse_prefix_host_bits == refuse);
    CHECK((config.problem.find("WINCNI_EMULATOR_PREFIX_HOST_BITS") != std::string::npos) == problem);
  }
  ::unsetenv("WINCNI_EMULATOR_PREFIX_HOST_BITS");
}

TEST_CASE("the emulator's switches: each takes its values, anything else is a problem naming it") {
  using wincni::hns::emulator::ErrorTextLanguage;
  using wincni::hns::emulator::PickOrder;
  struct Switch {
    const char* variable;
    const char* value;
    bool problem;
  };
  for (const Switch& s : {Switch{"WINCNI_EMULATOR_ERROR_TEXTS", "english", false},
                          Switch{"WINCNI_EMULATOR_ERROR_TEXTS", "localised", false},
                          Switch{"WINCNI_EMULATOR_ERROR_TEXTS", "zh-CN", true},
                          Switch{"WINCNI_EMULATOR_HNS_PICKS", "lowest", false},
                          Switch{"WINCNI_EMULATOR_HNS_PICKS", "random", false},
                          Switch{"WINCNI_EMULATOR_HNS_PICKS", "Random", true},
                          Switch{"WINCNI_EMULATOR_DUPLICATE_CODE", "0x80070034", false},
                          Switch{"WINCNI_EMULATOR_DUPLICATE_CODE", "0x80071392", false},
                          Switch{"WINCNI_EMULATOR_DUPLICATE_CODE", "0x80004005", true},
                          Switch{"WINCNI_EMULATOR_FILTER_KEYS", "either", false},
                          Switch{"WINCNI_EMULATOR_FILTER_KEYS", "v2", true},
                          Switch{"WINCNI_EMULATOR_NAMESPACE_DELETE", "leaves-reference", false},
                          Switch{"WINCNI_EMULATOR_NAMESPACE_DELETE", "stale", true},
                          Switch{"WINCNI_EMULATOR_ATTACHED_STATE", "created", false},
                          Switch{"WINCNI_EMULATOR_ATTACHED_STATE", "1", true},
                          Switch{"WINCNI_EMULATOR_ENCAP_OVERHEAD", "listed", false},
                          Switch{"WINCNI_EMULATOR_ENCAP_OVERHEAD", "50", true},
                          Switch{"WINCNI_EMULATOR_V1_POSTED_ID", "ignored", false},
                          Switch{"WINCNI_EMULATOR_V1_POSTED_ID", "honoured", true},
                          Switch{"WINCNI_EMULATOR_V1_FAILURES", "envelope", false},
                          Switch{"WINCNI_EMULATOR_V1_FAILURES", "hresult", true}}) {
    CAPTURE(s.variable);
    CAPTURE(s.value);
    ::setenv(s.variable, s.value, 1);
    const EmulatorConfig config = EmulatorConfig::from_environment();
    ::unsetenv(s.variable);
    CHECK((config.problem.find(s.variable) != std::string::npos) == s.problem);
    if (std::string(s.value) == "localised") CHECK(config.error_texts == ErrorTextLanguage::Chinese);
    if (std::string(s.value) == "random") CHECK(config.hns_picks == PickOrder::Random);
    if (std::string(s.value) == "0x80070034") CHECK(config.duplicate_code == hr::kDupName);
    if (std::string(s.value) == "either") CHECK(config.filter_either_schema);
    if (std::string(s.value) == "leaves-reference") CHECK(config.namespace_delete_leaves_reference);
    if (std::string(s.value) == "ignored") CHECK(config.v1_posted_id_ignored);
    if (std::string(s.value) == "envelope") CHECK(config.v1_failures_in_envelope);
  }
  const EmulatorConfig defaults = EmulatorConfig::from_environment();
  CHECK(defaults.error_texts == ErrorTextLanguage::English);
  CHECK(defaults.hns_picks == PickOrder::Lowest);
  CHECK_FALSE(defaults.duplicate_code);
  CHECK_FALSE(defaults.filter_either_schema);
  CHECK_FALSE(defaults.v1_posted_id_ignored);
}

TEST_CASE("a host port can be mapped once per network") {
  EmulatorFixture fx;
  Guid network = fx.network();
  std::string mapping =
      R"({"Name":"ep","Policies":[{"Type":"PortMapping","Settings":{"InternalPort":80,"ExternalPort":8080,"Protocol":6}}],
      "SchemaVersion":{"Major":2}})";
  Guid first;
  REQUIRE(fx.endpoint(network, mapping, &first).ok());
  CHECK(fx.endpoint(network, mapping).hr == hr::kPortAlreadyExists);
  // UDP on the same port is another mapping.
  std::string udp = mapping;
  udp.replace(udp.find("\"Protocol\":6"), 12, "\"Protocol\":17");
  CHECK(fx.endpoint(network, udp).ok());
  CHECK(fx.endpoint(network, R"({"Name":"ep","Policies":[
      {"Type":"PortMapping","Settings":{"InternalPort":80,"ExternalPort":9090,"Protocol":6}},
      {"Type":"PortMapping","Settings":{"InternalPort":81,"ExternalPort":9090,"Protocol":6}}],"SchemaVersion":{"Major":2}})")
            .hr == hr::kPortAlreadyExists);
  // Once the first endpoint is gone, its port is free.
  REQUIRE(fx.emulator.remove(HcnObject::Endpoint, first).ok());
  CHECK(fx.endpoint(network, mapping).ok());
}

TEST_CASE("a dual-stack endpoint maps one host port for each family") {
  EmulatorFixture fx;
  Guid network = fx.network();
  const std::string both = R"({"Name":"ep","Policies":[
      {"Type":"PortMapping","Settings":{"InternalPort":80,"ExternalPort":8080,"Protocol":6,"Flags":1}},
      {"Type":"PortMapping","Settings":{"InternalPort":80,"ExternalPort":8080,"Protocol":6,"Flags":3}}],
      "SchemaVersion":{"Major":2}})";
  CHECK(fx.endpoint(network, both).ok());
  // Each family's port is still taken once.
  CHECK(fx.endpoint(network, R"({"Name":"ep2","Policies":[
      {"Type":"PortMapping","Settings":{"InternalPort":80,"ExternalPort":8080,"Protocol":6,"Flags":2}}],
      "SchemaVersion":{"Major":2}})")
            .hr == hr::kPortAlreadyExists);
}

TEST_CASE("endpoint policies can be added, removed and replaced with HcnModifyEndpoint") {
  EmulatorFixture fx;
  Guid network = fx.network();
  Guid id;
  REQUIRE(fx.endpoint(network, kNoAddress, &id).ok());
  HcnHandle handle = nullptr;
  REQUIRE(fx.emulator.open(HcnObject::Endpoint, id, &handle).ok());
  std::string add = R"({"ResourceType":"Policy","RequestType":"Add","Settings":{"Policies":[
      {"Type":"ACL","Settings":{"Action":"Block","Direction":"In","Priority":100}}]}})";
  CHECK(fx.emulator.modify(HcnObject::Endpoint, handle, add).ok());
  CHECK(fx.properties(HcnObject::Endpoint, handle)["Policies"][0]["Settings"]["Action"] == "Block");
  std::string bad = R"({"ResourceType":"Policy","RequestType":"Add","Settings":{"Policies":[
      {"Type":"ACL","Settings":{"Action":"Maybe"}}]}})";
  CHECK(fx.emulator.modify(HcnObject::Endpoint, handle, bad).hr == hr::kInvalidPolicy);
  std::string remove = R"({"ResourceType":"Policy","RequestType":"Remove","Settings":{"Policies":[
      {"Type":"ACL","Settings":{"Action":"Block","Direction":"In","Priority":100}}]}})";
  CHECK(fx.emulator.modify(HcnObject::Endpoint, handle, remove).ok());
  CHECK_FALSE(fx.properties(HcnObject::Endpoint, handle).contains("Policies"));
  CHECK(fx.emulator.modify(HcnObject::Endpoint, handle, R"({"ResourceType":"Port","RequestType":"Add"})").hr ==
        hr::kRequestUnsupported);
  CHECK(fx.emulator.modify(HcnObject::Endpoint, handle, R"({"ResourceType":"Policy","RequestType":"Explode"})").hr ==
        hr::kInvalidJson);
  fx.emulator.close(HcnObject::Endpoint, handle);
}

TEST_CASE("endpoints of a missing network, and a missing endpoint") {
  EmulatorFixture fx;
  Guid network = fx.network();
  HcnHandle network_handle = nullptr;
  REQUIRE(fx.emulator.open(HcnObject::Network, network, &network_handle).ok());
  REQUIRE(fx.emulator.remove(HcnObject::Network, network).ok());
  CHECK(fx.create(HcnObject::Endpoint, kNoAddress, nullptr, network_handle).hr == hr::kNetworkNotFound);
  fx.emulator.close(HcnObject::Network, network_handle);
  CHECK(fx.create(HcnObject::Endpoint, kNoAddress).hr == hr::kInvalidHandle);
  HcnHandle handle = nullptr;
  HcnReply open = fx.emulator.open(HcnObject::Endpoint, Guid::generate(), &handle);
  CHECK(open.hr == hr::kEndpointNotFound);
  CHECK(json::parse(open.error_record)["Error"] == "The endpoint was not found. ");
  CHECK(fx.emulator.remove(HcnObject::Endpoint, Guid::generate()).hr == hr::kEndpointNotFound);
}

TEST_CASE("deleting a network deletes its endpoints") {
  EmulatorFixture fx;
  Guid network = fx.network();
  REQUIRE(fx.endpoint(network, kNoAddress).ok());
  REQUIRE(fx.emulator.remove(HcnObject::Network, network).ok());
  CHECK(fx.enumerate(HcnObject::Endpoint) == json::array());
}

TEST_CASE("enumerating endpoints by the v1 VirtualNetwork key and by name") {
  EmulatorFixture fx;
  Guid one = fx.network();
  json other = json::parse(kBridgeNetwork);
  other["Name"] = "cbr1";
  Guid two = fx.network(other.dump());
  Guid a;
  Guid b;
  REQUIRE(fx.endpoint(one, R"({"Name":"a_cbr0","SchemaVersion":{"Major":2}})", &a).ok());
  REQUIRE(fx.endpoint(two, R"({"Name":"b_cbr1","SchemaVersion":{"Major":2}})", &b).ok());
  CHECK(fx.enumerate(HcnObject::Endpoint, {{"VirtualNetwork", two.str()}}) == json::array({b.str()}));
  CHECK(fx.enumerate(HcnObject::Endpoint, {{"Name", "a_cbr0"}}) == json::array({a.str()}));
  CHECK(fx.enumerate(HcnObject::Endpoint, {{"Name", "A_CBR0"}}) == json::array());
}

TEST_CASE("filters name v1 properties: a v2-only key is refused, unless the filter keys are 'either'") {
  const json query = {{"SchemaVersion", {{"Major", 2}, {"Minor", 0}}}, {"Filter", R"({"HostComputeNetwork":"x"})"}};
  EmulatorFixture strict;
  HcnReply refused = strict.emulator.enumerate(HcnObject::Endpoint, query.dump());
  CHECK(refused.hr == hr::kInvalidArg);
  CHECK(refused.error_record.find("HostComputeNetwork") == std::string::npos);  // HNS's words, not the emulator's
  CHECK(strict.enumerate(HcnObject::Endpoint, {{"virtualnetwork", Guid{}.str()}}) == json::array());

  EmulatorConfig either;
  either.filter_either_schema = true;
  EmulatorFixture fx(either);
  Guid network = fx.network();
  Guid a;
  REQUIRE(fx.endpoint(network, R"({"Name":"a_cbr0","SchemaVersion":{"Major":2}})", &a).ok());
  CHECK(fx.enumerate(HcnObject::Endpoint, {{"HostComputeNetwork", network.str()}}) == json::array({a.str()}));
}

TEST_CASE("an endpoint's ID: the Id parameter, else the settings' ID; both must agree") {
  EmulatorFixture fx;
  const Guid network = fx.network();
  HcnHandle handle = nullptr;
  REQUIRE(fx.emulator.open(HcnObject::Network, network, &handle).ok());
  const Guid chosen = *Guid::parse("5A1D0F6E-2B3C-8D4E-9F00-112233445566");
  const Guid other = *Guid::parse("0B0B0B0B-1111-4222-8333-444455556666");
  auto settings_with_id = [](const Guid& id) {
    json settings = json::parse(kNoAddress);
    settings["ID"] = id.str();
    return settings.dump();
  };

  // The two disagree: refused, and nothing is made under either ID.
  HcnReply clash = fx.create(HcnObject::Endpoint, settings_with_id(other), nullptr, handle, chosen);
  CHECK(clash.hr == hr::kInvalidArg);
  CHECK(json::parse(clash.error_record)["ErrorCode"] == hr::kInvalidArg);
  CHECK(fx.enumerate(HcnObject::Endpoint).empty());

  // They agree, or only the parameter names one: that ID.
  Guid id;
  REQUIRE(fx.create(HcnObject::Endpoint, settings_with_id(chosen), &id, handle, chosen).ok());
  CHECK(id == chosen);
  REQUIRE(fx.emulator.remove(HcnObject::Endpoint, chosen).ok());
  REQUIRE(fx.create(HcnObject::Endpoint, kNoAddress, &id, handle, chosen).ok());
  CHECK(id == chosen);
  // Only the settings name one (a null Id parameter): the settings' ID.
  REQUIRE(fx.create(HcnObject::Endpoint, settings_with_id(other), &id, handle).ok());
  CHECK(id == other);
  // Neither: HNS makes one up.
  REQUIRE(fx.create(HcnObject::Endpoint, kNoAddress, &id, handle).ok());
  CHECK(id != chosen);
  CHECK(id != other);
  CHECK_FALSE(id.is_null());
  fx.emulator.close(HcnObject::Network, handle);
}

TEST_CASE("an ID posted to HNS v1: kept by default, a new one under WINCNI_EMULATOR_V1_POSTED_ID=ignored") {
  const Guid posted = *Guid::parse("5A1D0F6E-2B3C-8D4E-9F00-112233445566");
  for (const bool ignored : {false, true}) {
    CAPTURE(ignored);
    EmulatorConfig config;
    config.v1_posted_id_ignored = ignored;
    EmulatorFixture fx(config);
    const json network =
        fx.call("POST", "/networks/",
                json{{"ID", posted.str()},
                     {"Name", "v1net"},
                     {"Type", "L2Bridge"},
                     {"Subnets", json::array({{{"AddressPrefix", "10.5.0.0/24"}, {"GatewayAddress", "10.5.0.1"}}})}}
                    .dump());
    REQUIRE(network["Success"] == true);
    const Guid network_id = *Guid::parse(network["Output"]["ID"].get<std::string>());
    CHECK((network_id == posted) == !ignored);
    const json endpoint = fx.call(
        "POST", "/endpoints/", json{{"ID", posted.str()}, {"Name", "ep"}, {"VirtualNetwork", network_id.str()}}.dump());
    REQUIRE(endpoint["Success"] == true);
    const Guid endpoint_id = *Guid::parse(endpoint["Output"]["ID"].get<std::string>());
    CHECK((endpoint_id == posted) == !ignored);
    CHECK_FALSE(endpoint_id.is_null());
    // HCN keeps the ID it is given either way.
    const Guid chosen = *Guid::parse("0B0B0B0B-1111-4222-8333-444455556666");
    HcnHandle handle = nullptr;
    REQUIRE(fx.emulator.open(HcnObject::Network, network_id, &handle).ok());
    Guid id;
    REQUIRE(
        fx.create(HcnObject::Endpoint, R"({"Name":"ep2","SchemaVersion":{"Major":2,"Minor":0}})", &id, handle, chosen)
            .ok());
    CHECK(id == chosen);
    fx.emulator.close(HcnObject::Network, handle);
  }
}
