// The emulator's namespaces: attach and detach, and what each side shows.

#include <cstdlib>

#include "emulator_fixture.hpp"

using namespace hns_test;
namespace hr = wincni::hns::hr;

namespace {

std::string endpoint_request(const char* type, const Guid& endpoint) {
  return R"({"ResourceType":"Endpoint","RequestType":")" + std::string(type) + R"(","Settings":{"EndpointId":")" +
         endpoint.str() + R"("}})";
}

struct AttachFixture : EmulatorFixture {
  Guid network_id = network();
  Guid endpoint_id = make_endpoint();
  Guid ns = make_namespace();

  Guid make_endpoint() {
    Guid id;
    REQUIRE(endpoint(network_id, R"({"Name":"abc_cbr0","SchemaVersion":{"Major":2}})", &id).ok());
    return id;
  }
  Guid make_namespace() {
    Guid id;
    REQUIRE(create(HcnObject::Namespace, R"({"SchemaVersion":{"Major":2,"Minor":0}})", &id).ok());
    return id;
  }
  HcnReply modify_namespace(const Guid& target, const std::string& request) {
    HcnHandle handle = nullptr;
    HcnReply opened = emulator.open(HcnObject::Namespace, target, &handle);
    if (!opened.ok()) return opened;
    HcnReply reply = emulator.modify(HcnObject::Namespace, handle, request);
    emulator.close(HcnObject::Namespace, handle);
    return reply;
  }
};

}  // namespace

TEST_CASE("a namespace gets a compartment and a type") {
  AttachFixture fx;
  json ns = fx.get(HcnObject::Namespace, fx.ns);
  CHECK(ns["ID"] == fx.ns.str());
  CHECK(ns["NamespaceId"] == 2);
  CHECK(ns["Type"] == "Host");
  Guid second = fx.make_namespace();
  CHECK(fx.get(HcnObject::Namespace, second)["NamespaceId"] == 3);
}

TEST_CASE("attach sets the endpoint's HostComputeNamespace; detach clears it") {
  AttachFixture fx;
  REQUIRE(fx.modify_namespace(fx.ns, endpoint_request("Add", fx.endpoint_id)).ok());
  CHECK(fx.get(HcnObject::Endpoint, fx.endpoint_id)["HostComputeNamespace"] == fx.ns.str());
  json ns = fx.get(HcnObject::Namespace, fx.ns);
  CHECK(ns["Resources"] == json::parse(R"([{"Type":"Endpoint","Data":{"ID":")" + fx.endpoint_id.str() + R"("}}])"));
  json v1 = fx.call("GET", "/namespaces/" + fx.ns.str())["Output"];
  CHECK(v1["ResourceList"][0]["Data"]["Id"] == fx.endpoint_id.str());
  CHECK(fx.call("GET", "/endpoints/" + fx.endpoint_id.str())["Output"]["State"] == 2);

  REQUIRE(fx.modify_namespace(fx.ns, endpoint_request("Remove", fx.endpoint_id)).ok());
  CHECK(fx.get(HcnObject::Endpoint, fx.endpoint_id)["HostComputeNamespace"] == std::string(wincni::hns::kNullGuidText));
  CHECK_FALSE(fx.get(HcnObject::Namespace, fx.ns).contains("Resources"));
  CHECK(fx.call("GET", "/endpoints/" + fx.endpoint_id.str())["Output"]["State"] == 1);
}

TEST_CASE("attaching an endpoint twice is HCN_E_ENDPOINT_ALREADY_ATTACHED") {
  AttachFixture fx;
  REQUIRE(fx.modify_namespace(fx.ns, endpoint_request("Add", fx.endpoint_id)).ok());
  HcnReply again = fx.modify_namespace(fx.ns, endpoint_request("Add", fx.endpoint_id));
  CHECK(again.hr == hr::kEndpointAlreadyAttached);
  CHECK(json::parse(again.error_record)["Error"] == "This endpoint is already attached to the switch. ");
  Guid other = fx.make_namespace();
  CHECK(fx.modify_namespace(other, endpoint_request("Add", fx.endpoint_id)).hr == hr::kEndpointAlreadyAttached);
}

TEST_CASE("attach and detach errors: missing namespace, missing endpoint, not attached") {
  AttachFixture fx;
  HcnReply no_namespace = fx.modify_namespace(Guid::generate(), endpoint_request("Add", fx.endpoint_id));
  CHECK(no_namespace.hr == hr::kElementNotFound);
  CHECK(json::parse(no_namespace.error_record)["Error"] == "Element not found. ");
  CHECK(fx.modify_namespace(fx.ns, endpoint_request("Add", Guid::generate())).hr == hr::kEndpointNotFound);
  CHECK(fx.modify_namespace(fx.ns, endpoint_request("Remove", fx.endpoint_id)).hr == hr::kElementNotFound);
  CHECK(fx.modify_namespace(fx.ns, R"({"ResourceType":"Endpoint","RequestType":"Add","Settings":{}})").hr ==
        hr::kInvalidJson);
  CHECK(fx.modify_namespace(fx.ns, R"({"ResourceType":"Endpoint","RequestType":"Update","Settings":{}})").hr ==
        hr::kRequestUnsupported);
}

TEST_CASE("deleting an attached endpoint takes it out of its namespace, and deleting a namespace detaches") {
  AttachFixture fx;
  REQUIRE(fx.modify_namespace(fx.ns, endpoint_request("Add", fx.endpoint_id)).ok());
  REQUIRE(fx.emulator.remove(HcnObject::Endpoint, fx.endpoint_id).ok());
  CHECK_FALSE(fx.get(HcnObject::Namespace, fx.ns).contains("Resources"));

  Guid second = fx.make_endpoint();
  REQUIRE(fx.modify_namespace(fx.ns, endpoint_request("Add", second)).ok());
  REQUIRE(fx.emulator.remove(HcnObject::Namespace, fx.ns).ok());
  CHECK(fx.get(HcnObject::Endpoint, second)["HostComputeNamespace"] == std::string(wincni::hns::kNullGuidText));
  CHECK(fx.emulator.remove(HcnObject::Namespace, fx.ns).hr == hr::kElementNotFound);
}

TEST_CASE("a namespace created with its endpoints, and the one default namespace") {
  AttachFixture fx;
  Guid ns;
  REQUIRE(fx.create(HcnObject::Namespace,
                    R"({"Type":"HostDefault","Resources":[{"Type":"Endpoint","Data":{"ID":")" + fx.endpoint_id.str() +
                        R"("}}],"SchemaVersion":{"Major":2}})",
                    &ns)
              .ok());
  CHECK(fx.get(HcnObject::Namespace, ns)["NamespaceId"] == 1);
  CHECK(fx.get(HcnObject::Endpoint, fx.endpoint_id)["HostComputeNamespace"] == ns.str());
  CHECK(fx.create(HcnObject::Namespace, R"({"Type":"HostDefault","SchemaVersion":{"Major":2}})").hr ==
        hr::kDefaultNamespaceExists);
  CHECK(fx.enumerate(HcnObject::Namespace, {{"IsDefault", true}}) == json::array({ns.str()}));
  CHECK(fx.create(HcnObject::Namespace, R"({"Type":"Sideways","SchemaVersion":{"Major":2}})").hr == hr::kInvalidJson);
}

TEST_CASE(
    "WINCNI_EMULATOR_DEFAULT_NAMESPACE=present: the host lists its own default namespace, and takes another "
    "HostDefault") {
  EmulatorConfig config;
  config.default_namespace = true;
  EmulatorFixture fx(config);
  const json listed = fx.enumerate(HcnObject::Namespace, {{"IsDefault", true}});
  REQUIRE(listed.size() == 1);
  CHECK(fx.get(HcnObject::Namespace, *Guid::parse(listed[0].get<std::string>()))["NamespaceId"] == 1);
  // As hcsshim's tests do on hosts that have one.
  Guid created;
  REQUIRE(fx.create(HcnObject::Namespace, R"({"Type":"HostDefault","SchemaVersion":{"Major":2}})", &created).ok());
  CHECK(fx.enumerate(HcnObject::Namespace).size() == 2);
  CHECK(fx.emulator.remove(HcnObject::Namespace, created).ok());

  ::setenv("WINCNI_EMULATOR_DEFAULT_NAMESPACE", "present", 1);
  CHECK(EmulatorConfig::from_environment().default_namespace);
  ::setenv("WINCNI_EMULATOR_DEFAULT_NAMESPACE", "yes", 1);
  CHECK(EmulatorConfig::from_environment().problem.find("WINCNI_EMULATOR_DEFAULT_NAMESPACE") != std::string::npos);
  ::unsetenv("WINCNI_EMULATOR_DEFAULT_NAMESPACE");
}

TEST_CASE("opening a missing namespace is 0x80070490, as hcsshim expects") {
  EmulatorFixture fx;
  HcnHandle handle = nullptr;
  CHECK(fx.emulator.open(HcnObject::Namespace, Guid::generate(), &handle).hr == hr::kElementNotFound);
  // What an unattached endpoint names.
  CHECK(fx.emulator.open(HcnObject::Namespace, Guid{}, &handle).hr == hr::kElementNotFound);
}
