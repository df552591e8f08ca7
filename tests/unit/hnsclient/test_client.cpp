// The typed client over the emulator: lookups through filters, both APIs,
// error messages, retries and timeouts.

#include <fstream>
#include <map>

#include "emulator_fixture.hpp"
#include "wincni/hns/client.hpp"

using namespace hns_test;
using namespace wincni::hns;
using wincni::cni::IpAddress;
using wincni::cni::IpPrefix;
using wincni::hns::emulator::ErrorTextLanguage;

namespace {

CallPolicy quick_policy() {
  CallPolicy policy;
  policy.timeout = std::chrono::milliseconds(2'000);
  policy.first_backoff = std::chrono::milliseconds(1);
  policy.max_backoff = std::chrono::milliseconds(4);
  return policy;
}

struct ClientFixture {
  TempDir dir;
  TempDir journal_dir;
  std::shared_ptr<Emulator> emulator;
  HnsClient client;

  explicit ClientFixture(const std::string& faults = "", CallPolicy policy = quick_policy(),
                         ErrorTextLanguage error_texts = ErrorTextLanguage::English, bool v1_envelopes = false)
      : emulator(std::make_shared<Emulator>([&] {
          EmulatorConfig config = config_for(dir.path());
          config.faults = faults;
          config.error_texts = error_texts;
          config.v1_failures_in_envelope = v1_envelopes;
          config.journal_path = journal_dir.path() + "/journal";
          return config;
        }())),
        client(emulator, policy) {}

  // Another client of this HNS, with `faults` injected.
  HnsClient client_with_faults(const std::string& faults) const {
    EmulatorConfig config = emulator->config();
    config.faults = faults;
    return HnsClient(std::make_shared<Emulator>(config), quick_policy());
  }

  std::vector<json> journal() const {
    std::vector<json> lines;
    std::ifstream in(journal_dir.path() + "/journal");
    for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
    return lines;
  }

  HostComputeNetwork bridge(const std::string& name = "cbr0", const std::string& subnet = "10.244.1.0/24",
                            const Guid& id = {}) {
    HostComputeNetwork network;
    network.id = id;
    network.name = name;
    network.type = NetworkType::L2Bridge;
    Subnet s;
    s.ip_address_prefix = *IpPrefix::parse(subnet);
    s.routes.push_back(Route{s.ip_address_prefix.first().next(), IpPrefix::parse("0.0.0.0/0"), 0});
    network.ipams.push_back(Ipam{"Static", {s}});
    return client.create_network(network);
  }

  HnsNetwork v1_bridge() {
    HnsNetwork wanted;
    wanted.name = "cbr0";
    wanted.type = NetworkType::L2Bridge;
    wanted.subnets.push_back({IpPrefix::parse("10.244.1.0/24"), IpAddress::parse("10.244.1.1"), {}});
    return client.create_hns_network(wanted);
  }

  HnsEndpoint v1_endpoint(const HnsNetwork& network) {
    HnsEndpoint settings;
    settings.name = "pause_cbr0";
    settings.virtual_network = network.id;
    settings.ip_address = IpAddress::parse("10.244.1.5");
    settings.gateway_address = IpAddress::parse("10.244.1.2");
    return client.create_hns_endpoint(settings);
  }

  // How many times the journal has `op` (HNSCall: with this method and path).
  int calls(const std::string& op, const std::string& method = {}, const std::string& path = {}) const {
    int count = 0;
    for (const auto& line : journal()) {
      if (line["op"] != op) continue;
      count += method.empty() || (line["input"]["Method"] == method && line["input"]["Path"] == path);
    }
    return count;
  }
};

std::string error_of(const std::function<void()>& action, HResult* code = nullptr, int* cni_code = nullptr) {
  try {
    action();
  } catch (const HnsError& error) {
    if (code) *code = error.hresult();
    if (cni_code) *cni_code = error.code();
    return error.what();
  }
  return "no error";
}

// What a call that met an unreadable answer raised: its HRESULT and message.
// Anything but an HnsError fails the test.
std::pair<HResult, std::string> unreadable_answer_error(const std::function<void()>& action) {
  try {
    action();
  } catch (const HnsError& error) {
    return {error.hresult(), error.what()};
  } catch (const std::exception& error) {
    FAIL_CHECK("not an HnsError: " << error.what());
    return {};
  }
  FAIL_CHECK("no error");
  return {};
}

}  // namespace

TEST_CASE("client: networks by name through the server-side filter") {
  ClientFixture fx;
  HostComputeNetwork created = fx.bridge();
  CHECK_FALSE(created.id.is_null());
  CHECK(created.type == NetworkType::L2Bridge);
  auto found = fx.client.find_network_by_name("cbr0");
  REQUIRE(found);
  CHECK(found->id == created.id);
  CHECK_FALSE(fx.client.find_network_by_name("cbr9"));
  // The lookup asked HNS for that name instead of listing everything.
  bool filtered = false;
  for (const auto& line : fx.journal()) {
    if (line["op"] == "HcnEnumerateNetworks") filtered = line["input"]["Query"]["Filter"] == R"({"Name":"cbr9"})";
  }
  CHECK(filtered);
  CHECK(fx.client.list_networks().size() == 1);
  CHECK(fx.client.delete_network(created.id));
  CHECK_FALSE(fx.client.delete_network(created.id));
  CHECK_FALSE(fx.client.find_network(created.id));
}

TEST_CASE("client: failures name the operation, the object and HNS's text") {
  ClientFixture fx;
  fx.bridge();
  HResult code = 0;
  int cni_code = 0;
  std::string message = error_of([&] { fx.bridge(); }, &code, &cni_code);
  CHECK(message ==
        "HcnCreateNetwork for network \"cbr0\" failed: A network with this name already exists. "
        "(HCN_E_NETWORK_ALREADY_EXISTS 0x803B0010)");
  CHECK(code == hr::kNetworkAlreadyExists);
  CHECK(cni_code == wincni::cni::kHnsFailure);
}

TEST_CASE("client: endpoints, HNS IPAM, and the endpoints of one network") {
  ClientFixture fx;
  HostComputeNetwork network = fx.bridge();
  HostComputeEndpoint wanted;
  wanted.name = "abc_cbr0";
  wanted.host_compute_network = network.id;
  HostComputeEndpoint endpoint = fx.client.create_endpoint(wanted);
  CHECK(endpoint.ip_configurations.at(0).ip_address == *IpAddress::parse("10.244.1.2"));
  CHECK(endpoint.host_compute_network == network.id);
  auto found = fx.client.find_endpoint_by_name("abc_cbr0");
  REQUIRE(found);
  CHECK(found->id == endpoint.id);
  CHECK(fx.client.list_endpoints_of_network(network.id).size() == 1);
  HostComputeNetwork other = fx.bridge("cbr1", "10.244.2.0/24");
  CHECK(fx.client.list_endpoints_of_network(other.id).empty());

  wanted.ip_configurations.push_back({*IpAddress::parse("10.9.9.9"), 0});
  std::string message = error_of([&] { fx.client.create_endpoint(wanted); });
  CHECK(message.find("HcnCreateEndpoint for endpoint \"abc_cbr0\" on network " + network.id.str()) == 0);
  CHECK(message.find("HCN_E_INVALID_IP 0x803B001E") != std::string::npos);

  HostComputeEndpoint orphan;
  orphan.name = "orphan";
  orphan.host_compute_network = Guid::generate();
  HResult code = 0;
  error_of([&] { fx.client.create_endpoint(orphan); }, &code);
  CHECK(code == hr::kNetworkNotFound);
  CHECK(fx.client.delete_endpoint(endpoint.id));
  CHECK_FALSE(fx.client.delete_endpoint(endpoint.id));
}

TEST_CASE("client: an endpoint whose read-back HNS could not answer, or whose answer was lost, is read again") {
  // The create's read-back is the first QueryEndpointProperties; the create
  // itself is never repeated, the read-back is, as a call of its own.
  for (const char* fault : {"QueryEndpointProperties:1:fail=0x800706BA", "QueryEndpointProperties:1:lose=0x800706BE"}) {
    CAPTURE(fault);
    ClientFixture fx(fault);
    HostComputeEndpoint wanted;
    wanted.id = Guid::generate();  // as the engine names its endpoints
    wanted.name = "abc_cbr0";
    wanted.host_compute_network = fx.bridge().id;
    const HostComputeEndpoint endpoint = fx.client.create_endpoint(wanted);
    CHECK(endpoint.id == wanted.id);
    CHECK(endpoint.ip_configurations.at(0).ip_address == *IpAddress::parse("10.244.1.2"));
    CHECK(fx.calls("HcnCreateEndpoint") == 1);
    CHECK(fx.calls("HcnQueryEndpointProperties") == 2);
  }
  // A refusal is not read again: the caller undoes the create.
  ClientFixture fx("QueryEndpointProperties:1:fail=0x80070005");
  HostComputeEndpoint wanted;
  wanted.id = Guid::generate();
  wanted.name = "abc_cbr0";
  wanted.host_compute_network = fx.bridge().id;
  HResult code = 0;
  error_of([&] { fx.client.create_endpoint(wanted); }, &code);
  CHECK(code == static_cast<HResult>(0x80070005));  // E_ACCESSDENIED
  CHECK(fx.calls("HcnCreateEndpoint") == 1);
  CHECK(fx.calls("HcnQueryEndpointProperties") == 1);
}

TEST_CASE("client: attach to a namespace and detach") {
  ClientFixture fx;
  HostComputeNetwork network = fx.bridge();
  HostComputeEndpoint wanted;
  wanted.name = "abc_cbr0";
  wanted.host_compute_network = network.id;
  HostComputeEndpoint endpoint = fx.client.create_endpoint(wanted);
  HostComputeNamespace ns = fx.client.create_namespace();
  fx.client.attach_to_namespace(ns.id, endpoint.id);
  CHECK(fx.client.find_endpoint(endpoint.id)->host_compute_namespace == ns.id);
  CHECK(fx.client.find_namespace(ns.id)->endpoint_ids() == std::vector<Guid>{endpoint.id});
  HResult code = 0;
  std::string message = error_of([&] { fx.client.attach_to_namespace(ns.id, endpoint.id); }, &code);
  CHECK(code == hr::kEndpointAlreadyAttached);
  CHECK(message.find("HcnModifyNamespace for endpoint " + endpoint.id.str() + " and namespace " + ns.id.str()) == 0);
  CHECK(fx.client.detach_from_namespace(ns.id, endpoint.id));
  CHECK_FALSE(fx.client.detach_from_namespace(ns.id, endpoint.id));
  CHECK_FALSE(fx.client.detach_from_namespace(Guid::generate(), endpoint.id));
  CHECK(fx.client.list_namespaces().size() == 1);
  CHECK(fx.client.delete_namespace(ns.id));
  CHECK_FALSE(fx.client.delete_namespace(ns.id));
  CHECK_FALSE(fx.client.find_namespace(ns.id));
}

namespace {

// Misses are answered {"Success":false} with a text in the host's language.
void exercise_v1_api(ErrorTextLanguage texts, bool envelopes = false) {
  ClientFixture fx("", quick_policy(), texts, envelopes);
  HnsNetwork network = fx.v1_bridge();
  CHECK(network.management_ip == IpAddress::parse("192.0.2.4"));
  REQUIRE(fx.client.find_hns_network_by_name("cbr0"));
  CHECK_FALSE(fx.client.find_hns_network_by_name("nope"));
  CHECK_FALSE(fx.client.get_hns_network(Guid::generate()));

  HnsEndpoint endpoint = fx.v1_endpoint(network);
  CHECK(endpoint.prefix_length == 24);
  fx.client.attach_container(endpoint.id, "pause");
  CHECK(fx.client.get_hns_endpoint(endpoint.id)->shared_containers == std::vector<std::string>{"pause"});
  CHECK(fx.client.find_hns_endpoint_by_name("pause_cbr0")->state == EndpointState::Attached);
  CHECK(fx.client.detach_container(endpoint.id, "pause"));
  HResult code = 0;
  error_of([&] { fx.client.detach_container(endpoint.id, "pause"); }, &code);
  CHECK(code == hr::kEndpointNotAttached);
  fx.client.attach_host(endpoint.id);
  error_of([&] { fx.client.attach_host(endpoint.id); }, &code);
  CHECK(code == hr::kEndpointAlreadyAttached);
  CHECK(fx.client.detach_host(endpoint.id));
  CHECK(fx.client.list_hns_endpoints().size() == 1);
  CHECK(fx.client.delete_hns_endpoint(endpoint.id));
  CHECK_FALSE(fx.client.delete_hns_endpoint(endpoint.id));
  CHECK_FALSE(fx.client.detach_container(endpoint.id, "pause"));
  CHECK(fx.client.delete_hns_network(network.id));
  CHECK(fx.client.list_hns_networks().empty());
  CHECK_FALSE(fx.client.delete_hns_network(network.id));
  HnsEndpoint orphan;
  orphan.name = "orphan";
  orphan.virtual_network = network.id;
  error_of([&] { fx.client.create_hns_endpoint(orphan); }, &code);
  CHECK(code == hr::kNetworkNotFound);
}

}  // namespace

TEST_CASE("client: the v1 API, whatever language HNS words its errors in") {
  SUBCASE("English") { exercise_v1_api(ErrorTextLanguage::English); }
  SUBCASE("Chinese") { exercise_v1_api(ErrorTextLanguage::Chinese); }
  // HNS answering every failure in {"Success":false,...,"ErrorCode":...}:
  // the code decides, as the call's own HRESULT would.
  SUBCASE("Chinese, failures in the envelope") { exercise_v1_api(ErrorTextLanguage::Chinese, true); }
}

TEST_CASE("client: a v1 failure in the envelope with its ErrorCode: retried when transient, refused with its code") {
  // The first GET answers HNS's "manager stopped" in the envelope; the
  // client repeats it as it would the HRESULT.
  ClientFixture fx("EnumerateNetworks:1:fail=0x803B0020", quick_policy(), ErrorTextLanguage::Chinese, true);
  CHECK(fx.client.list_hns_networks().empty());
  CHECK(fx.calls("HNSCall", "GET", "/networks/") == 2);
  HnsEndpoint endpoint = fx.v1_endpoint(fx.v1_bridge());
  fx.client.attach_host(endpoint.id);
  bool refused = false;
  HResult code = 0;
  try {
    fx.client.attach_host(endpoint.id);
  } catch (const HnsError& error) {
    refused = error.refused();
    code = error.hresult();
  }
  CHECK(refused);
  CHECK(code == hr::kEndpointAlreadyAttached);
}

TEST_CASE("client: a v1 {\"Success\":false} about an object HNS still lists is a refusal, in any language") {
  // The fault answers "not found" for an endpoint that is there: only the
  // listing can tell, since the words may be Chinese.
  ClientFixture fx("DeleteEndpoint:1:fail=0x803B0002", quick_policy(), ErrorTextLanguage::Chinese);
  HnsEndpoint endpoint = fx.v1_endpoint(fx.v1_bridge());
  std::string message = error_of([&] { fx.client.delete_hns_endpoint(endpoint.id); });
  CHECK(message.find("HNSCall DELETE /endpoints/" + endpoint.id.str() + " for endpoint") == 0);
  CHECK(message.find("找不到终结点。") != std::string::npos);
  CHECK(fx.calls("HNSCall", "GET", "/endpoints/") == 1);
  bool refused = false;
  try {
    fx.client_with_faults("DeleteEndpoint:2:fail=0x803B0002").delete_hns_endpoint(endpoint.id);
  } catch (const HnsError& error) {
    refused = error.refused();  // a rollback must not take it for work HNS did
  }
  CHECK(refused);
  CHECK(fx.client.delete_hns_endpoint(endpoint.id));
}

TEST_CASE("client: a v1 update posts the whole endpoint; its policies read back through v1 and HCN") {
  ClientFixture fx;
  HnsEndpoint endpoint = fx.v1_endpoint(fx.v1_bridge());
  PortMappingPolicy mapping;
  mapping.protocol.number = 6;
  mapping.internal_port = 80;
  mapping.external_port = 8080;
  endpoint.policies.push_back(Policy{OutboundNatPolicy{"", {"10.244.0.0/16"}, {}, 0, 0}});
  endpoint.policies.push_back(Policy{mapping});

  HnsEndpoint updated = fx.client.update_hns_endpoint(endpoint);
  CHECK(updated.id == endpoint.id);
  CHECK(updated.policies == endpoint.policies);
  CHECK(fx.calls("HNSCall", "POST", "/endpoints/" + endpoint.id.str()) == 1);
  // Posting the same object again leaves it as it was (no policy twice).
  CHECK(fx.client.update_hns_endpoint(endpoint).policies == endpoint.policies);

  CHECK(fx.client.get_hns_endpoint(endpoint.id)->policies == endpoint.policies);
  auto through_hcn = fx.client.find_endpoint(endpoint.id);
  REQUIRE(through_hcn);
  REQUIRE(through_hcn->policies.size() == 2);
  REQUIRE(through_hcn->policies[0].as<OutboundNatPolicy>());
  CHECK(through_hcn->policies[0].as<OutboundNatPolicy>()->exceptions == std::vector<std::string>{"10.244.0.0/16"});
  REQUIRE(through_hcn->policies[1].as<PortMappingPolicy>());
  CHECK(through_hcn->policies[1].as<PortMappingPolicy>()->external_port == 8080);
  CHECK(through_hcn->policies[1].as<PortMappingPolicy>()->protocol.number == 6);
}

TEST_CASE("client: a v1 update of a missing endpoint raises not-found naming it") {
  ClientFixture fx;
  fx.v1_bridge();
  HnsEndpoint gone;
  gone.id = Guid::generate();
  gone.name = "gone_cbr0";
  HResult code = 0;
  std::string message = error_of([&] { fx.client.update_hns_endpoint(gone); }, &code);
  CHECK(code == hr::kEndpointNotFound);
  CHECK(message.find("HNSCall POST /endpoints/" + gone.id.str() + " for endpoint " + gone.id.str() + " failed") == 0);
}

TEST_CASE("client: a v1 update is retried when HNS could not take it, and when its answer was lost") {
  // POST /endpoints/<id> counts as ModifyEndpoint.
  for (const char* fault : {"ModifyEndpoint:1:fail=0x800706BA", "ModifyEndpoint:1:lose=0x800706BE"}) {
    CAPTURE(fault);
    ClientFixture fx(fault);
    HnsEndpoint endpoint = fx.v1_endpoint(fx.v1_bridge());
    endpoint.policies.push_back(Policy{OutboundNatPolicy{"", {"10.244.0.0/16"}, {}, 0, 0}});
    CHECK(fx.client.update_hns_endpoint(endpoint).policies == endpoint.policies);
    CHECK(fx.calls("HNSCall", "POST", "/endpoints/" + endpoint.id.str()) == 2);
  }
}

TEST_CASE("client: version and features; an HNS without HCN is searched the v1 way") {
  ClientFixture fx;
  fx.emulator->store_hns_version(HnsVersion{10, 2});
  CHECK(fx.client.version() == HnsVersion{10, 2});
  CHECK(fx.client.supports(Feature::Dsr));
  CHECK_FALSE(fx.client.supports(Feature::VxlanPort));

  ClientFixture old;
  old.emulator->store_hns_version(HnsVersion{7, 2});
  HnsNetwork wanted;
  wanted.name = "l2bridge";
  wanted.type = NetworkType::L2Bridge;
  old.client.create_hns_network(wanted);
  CHECK(old.client.find_hns_network_by_name("l2bridge"));
  HResult code = 0;
  error_of([&] { old.client.find_network_by_name("l2bridge"); }, &code);
  CHECK(code == hr::kProcNotFound);
}

TEST_CASE("client: a transient failure is retried, with bounded attempts") {
  ClientFixture once("EnumerateNetworks:1:fail=0x800706BA");
  once.bridge();
  CHECK(once.client.find_network_by_name("cbr0"));

  ClientFixture always("EnumerateNetworks:1+:fail=0x803B0020");
  HResult code = 0;
  int cni_code = 0;
  std::string message = error_of([&] { always.client.find_network_by_name("cbr0"); }, &code, &cni_code);
  CHECK(code == hr::kManagerStopped);
  CHECK(cni_code == wincni::cni::kTryAgainLater);
  CHECK(message.find("HcnEnumerateNetworks for network \"cbr0\" failed: Operation cannot be performed while service is "
                     "stopping.") == 0);
  CHECK(always.calls("HcnEnumerateNetworks") == CallPolicy{}.max_attempts);
}

TEST_CASE("client: a create that may have run is not repeated") {
  ClientFixture fx("CreateNetwork:1:fail=0x800706BE");
  HResult code = 0;
  error_of([&] { fx.bridge(); }, &code);
  CHECK(code == hr::kRpcCallFailed);
  CHECK(fx.calls("HcnCreateNetwork") == 1);
}

TEST_CASE("client: every call has a timeout") {
  CallPolicy policy = quick_policy();
  policy.timeout = std::chrono::milliseconds(150);
  ClientFixture fx("EnumerateNetworks:1:hang", policy);
  HResult code = 0;
  int cni_code = 0;
  auto start = std::chrono::steady_clock::now();
  std::string message = error_of([&] { fx.client.find_network_by_name("cbr0"); }, &code, &cni_code);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(code == hr::kTimeout);
  CHECK(cni_code == wincni::cni::kTryAgainLater);
  CHECK(message.find("HcnEnumerateNetworks for network \"cbr0\" failed: HNS did not answer within 150 ms") == 0);
  // The next call is not stuck behind the hung one.
  CHECK_FALSE(fx.client.find_network_by_name("cbr0"));
}

TEST_CASE("not-found is recognised in both APIs") {
  CHECK(is_not_found(hr::kNetworkNotFound));
  CHECK(is_not_found(hr::kEndpointNotFound));
  CHECK(is_not_found(hr::kElementNotFound));
  CHECK_FALSE(is_not_found(hr::kInvalidJson));
  // HNS's words never decide: they are in the host's language.
  HnsError v1(hr::kOk, "HNSCall DELETE /endpoints/x", "endpoint x", "The endpoint was not found. ");
  CHECK_FALSE(v1.not_found());
  CHECK(std::string(v1.what()) == "HNSCall DELETE /endpoints/x for endpoint x failed: The endpoint was not found.");
  CHECK(HnsError(hr::kEndpointNotFound, "HcnOpenEndpoint", "endpoint x", "找不到终结点。 ").not_found());
  CHECK(is_transient(hr::kRpcServerUnavailable));
  CHECK_FALSE(is_transient(hr::kRpcCallFailed));
  CHECK(is_maybe_executed(hr::kRpcCallFailed));
}

TEST_CASE("client: an ID the caller chose goes to HcnCreate*'s Id parameter and into the settings, in agreement") {
  ClientFixture fx;
  HostComputeNetwork network = fx.bridge();
  HostComputeEndpoint settings;
  settings.id = *Guid::parse("9C3E2A11-0F4B-8A6D-B2C7-0D1E2F3A4B5C");
  settings.name = "pod1_cbr0";
  settings.host_compute_network = network.id;
  CHECK(fx.client.create_endpoint(settings).id == settings.id);

  HostComputeNamespace ns;
  ns.id = *Guid::parse("1D2C3B4A-5F6E-4708-8192-A3B4C5D6E7F8");
  CHECK(fx.client.create_namespace(ns).id == ns.id);

  std::map<std::string, json> created;
  for (const auto& line : fx.journal()) {
    if (line["op"] == "HcnCreateEndpoint" || line["op"] == "HcnCreateNamespace") created[line["op"]] = line["input"];
  }
  REQUIRE(created.size() == 2);
  CHECK(created["HcnCreateEndpoint"]["Id"] == settings.id.str());
  CHECK(created["HcnCreateEndpoint"]["Settings"]["ID"] == settings.id.str());
  CHECK(created["HcnCreateNamespace"]["Id"] == ns.id.str());

  // An ID of no one's choosing: the parameter is null and HNS picks.
  HostComputeEndpoint unnamed;
  unnamed.name = "pod2_cbr0";
  unnamed.host_compute_network = network.id;
  const HostComputeEndpoint picked = fx.client.create_endpoint(unnamed);
  CHECK_FALSE(picked.id.is_null());
  json last_create;
  for (const auto& line : fx.journal()) {
    if (line["op"] == "HcnCreateEndpoint") last_create = line["input"];
  }
  CHECK(last_create["Id"] == Guid{}.str());
}

namespace {

// Objects with IDs fixed, so that a test can name them before they exist.
struct GarbleScene {
  Guid network = *Guid::parse("0A1B2C3D-0000-4000-8000-000000000001");
  Guid endpoint = *Guid::parse("0A1B2C3D-0000-4000-8000-000000000002");
  Guid ns = *Guid::parse("0A1B2C3D-0000-4000-8000-000000000003");

  HostComputeEndpoint hcn_endpoint(const std::string& name) const {
    HostComputeEndpoint settings;
    settings.name = name;
    settings.host_compute_network = network;
    return settings;
  }
  HnsEndpoint v1_endpoint(const std::string& name) const {
    HnsEndpoint settings;
    settings.name = name;
    settings.virtual_network = network;
    return settings;
  }

  void build(ClientFixture& fx) const {
    fx.bridge("cbr0", "10.244.1.0/24", network);
    HostComputeEndpoint endpoint_settings = hcn_endpoint("abc_cbr0");
    endpoint_settings.id = endpoint;
    fx.client.create_endpoint(endpoint_settings);
    HostComputeNamespace ns_settings;
    ns_settings.id = ns;
    fx.client.create_namespace(ns_settings);
  }
};

}  // namespace

TEST_CASE("client: an answer that cannot be read is an HnsError naming the operation and the object, on every call") {
  const GarbleScene scene;
  const std::string network = scene.network.str();
  const std::string endpoint = scene.endpoint.str();
  const std::string ns = scene.ns.str();
  struct Case {
    std::string fault;  // the operation as the emulator counts it
    std::function<void(HnsClient&)> call;
    std::string operation;  // as the message names them
    std::string object;
    // The client has no use for the Output, so only a garbled envelope
    // (text) is an error.
    bool reads_output = true;
  };
  const std::vector<Case> cases = {
      {"EnumerateNetworks", [](HnsClient& c) { c.find_network_by_name("cbr0"); }, "HcnEnumerateNetworks",
       "network \"cbr0\""},
      {"EnumerateEndpoints", [](HnsClient& c) { c.list_endpoints(); }, "HcnEnumerateEndpoints", "endpoints"},
      {"OpenNetwork", [&](HnsClient& c) { c.find_network(scene.network); }, "HcnOpenNetwork", "network " + network},
      {"QueryEndpointProperties", [&](HnsClient& c) { c.find_endpoint(scene.endpoint); }, "HcnQueryEndpointProperties",
       "endpoint " + endpoint},
      {"QueryNamespaceProperties", [&](HnsClient& c) { c.find_namespace(scene.ns); }, "HcnQueryNamespaceProperties",
       "namespace " + ns},
      {"CreateEndpoint", [&](HnsClient& c) { c.create_endpoint(scene.hcn_endpoint("def_cbr0")); }, "HcnCreateEndpoint",
       "endpoint \"def_cbr0\" on network " + network},
      {"QueryEndpointProperties", [&](HnsClient& c) { c.create_endpoint(scene.hcn_endpoint("def_cbr0")); },
       "HcnQueryEndpointProperties", "endpoint \"def_cbr0\" on network " + network},
      {"QueryNamespaceProperties", [](HnsClient& c) { c.create_namespace(); }, "HcnQueryNamespaceProperties",
       "a namespace"},
      {"ModifyEndpoint",
       [&](HnsClient& c) {
         c.modify_endpoint(scene.endpoint, policy_request(RequestType::Add, {Policy{OutboundNatPolicy{}}}));
       },
       "HcnModifyEndpoint", "endpoint " + endpoint},
      {"ModifyNamespace", [&](HnsClient& c) { c.attach_to_namespace(scene.ns, scene.endpoint); }, "HcnModifyNamespace",
       "endpoint " + endpoint + " and namespace " + ns},
      {"DeleteNamespace", [&](HnsClient& c) { c.delete_namespace(scene.ns); }, "HcnDeleteNamespace", "namespace " + ns},
      {"GetVersion", [](HnsClient& c) { c.version(); }, "HNSCall GET /globals/version", "the HNS version"},
      {"QueryNetworkProperties", [&](HnsClient& c) { c.get_hns_network(scene.network); },
       "HNSCall GET /networks/" + network, "network " + network},
      {"EnumerateNetworks", [](HnsClient& c) { c.list_hns_networks(); }, "HNSCall GET /networks/", "networks"},
      {"EnumerateEndpoints", [](HnsClient& c) { c.list_hns_endpoints(); }, "HNSCall GET /endpoints/", "endpoints"},
      {"CreateEndpoint", [&](HnsClient& c) { c.create_hns_endpoint(scene.v1_endpoint("ghi_cbr0")); },
       "HNSCall POST /endpoints/", "endpoint \"ghi_cbr0\" on network " + network},
      {"ModifyEndpoint",
       [&](HnsClient& c) {
         HnsEndpoint whole = scene.v1_endpoint("abc_cbr0");
         whole.id = scene.endpoint;
         c.update_hns_endpoint(whole);
       },
       "HNSCall POST /endpoints/" + endpoint, "endpoint " + endpoint},
      {"ModifyEndpoint", [&](HnsClient& c) { c.attach_container(scene.endpoint, "pause"); },
       "HNSCall POST /endpoints/" + endpoint + "/attach", "endpoint " + endpoint + " and container pause", false},
      {"DeleteEndpoint", [&](HnsClient& c) { c.delete_hns_endpoint(scene.endpoint); },
       "HNSCall DELETE /endpoints/" + endpoint, "endpoint " + endpoint},
  };
  for (const char* garbling : {"garble", "garble=shape"}) {
    for (const Case& c : cases) {
      const std::string fault = c.fault + ":1:" + garbling;
      CAPTURE(fault);
      CAPTURE(c.operation);
      ClientFixture fx;
      scene.build(fx);
      HnsClient faulty = fx.client_with_faults(fault);
      if (!c.reads_output && std::string(garbling) == "garble=shape") {
        CHECK_NOTHROW(c.call(faulty));
        continue;
      }
      auto [code, message] = unreadable_answer_error([&] { c.call(faulty); });
      CHECK(code == hr::kInvalidJson);
      CHECK(message.find(c.operation + " for " + c.object + " failed: HNS answered what cannot be read (") == 0);
      CHECK(message.find("(HCN_E_INVALID_JSON 0x803B001B)") != std::string::npos);
    }
  }
}

TEST_CASE("client: the unreadable answer is quoted in the message, cut to 512 bytes") {
  const GarbleScene scene;
  struct Case {
    std::string fault;
    std::string quoted;  // where the message quotes the answer
  };
  for (const Case& c : {Case{"EnumerateEndpoints:1:garble", "(not JSON): {\"Output\":[{"},
                        // In shape, the message says which field of which item does not fit.
                        Case{"EnumerateEndpoints:1:garble=shape", "(\"[0].ID\": expected a string): {\"Output\":[{"}}) {
    CAPTURE(c.fault);
    ClientFixture fx;
    scene.build(fx);
    for (const char* name : {"a_cbr0", "b_cbr0", "c_cbr0"}) fx.client.create_hns_endpoint(scene.v1_endpoint(name));
    HnsClient faulty = fx.client_with_faults(c.fault);
    HResult code = 0;
    int cni_code = 0;
    std::string message = error_of([&] { faulty.list_hns_endpoints(); }, &code, &cni_code);
    CHECK(code == hr::kInvalidJson);
    CHECK(cni_code == wincni::cni::kHnsFailure);
    CHECK_MESSAGE(message.find(c.quoted) != std::string::npos, message);
    CHECK(message.find(" bytes in all) (HCN_E_INVALID_JSON 0x803B001B)") != std::string::npos);
    CHECK(message.size() < 512 + 200);
  }
}

TEST_CASE("client: an unreadable answer is not retried, and the call's work stays done") {
  const GarbleScene scene;
  ClientFixture fx;
  scene.build(fx);
  HnsClient faulty = fx.client_with_faults("CreateEndpoint:1:garble");
  HResult code = 0;
  error_of([&] { faulty.create_endpoint(scene.hcn_endpoint("def_cbr0")); }, &code);
  CHECK(code == hr::kInvalidJson);
  CHECK(fx.calls("HcnCreateEndpoint") == 2);  // the scene's and this one
  CHECK(fx.client.find_endpoint_by_name("def_cbr0"));
}

TEST_CASE("hot attach through HCS: HNS lists the container; a repeat, a removal twice and a gone container") {
  ClientFixture fx;
  HnsNetwork network = fx.v1_bridge();
  HnsEndpoint endpoint = fx.v1_endpoint(network);
  HResult code = 0;
  error_of([&] { fx.client.hot_attach("pause", endpoint.id); }, &code);
  CHECK(code == hr::kSystemNotFound);
  CHECK_FALSE(fx.client.compute_system_properties("pause"));

  fx.client.create_compute_system("pause", Json{{"SystemType", "Container"}});
  fx.client.hot_attach("pause", endpoint.id);
  fx.client.hot_attach("pause", endpoint.id);  // already there: success
  CHECK(fx.client.get_hns_endpoint(endpoint.id)->shared_containers == std::vector<std::string>{"pause"});
  CHECK(fx.client.hot_detach("pause", endpoint.id));
  CHECK_FALSE(fx.client.hot_detach("pause", endpoint.id));
  CHECK(fx.client.get_hns_endpoint(endpoint.id)->shared_containers.empty());

  fx.client.hot_attach("pause", endpoint.id);
  CHECK(fx.client.terminate_compute_system("pause"));
  CHECK_FALSE(fx.client.terminate_compute_system("pause"));
  CHECK_FALSE(fx.client.hot_detach("pause", endpoint.id));  // its vNIC went with it
  CHECK(fx.client.get_hns_endpoint(endpoint.id)->shared_containers.empty());
}
