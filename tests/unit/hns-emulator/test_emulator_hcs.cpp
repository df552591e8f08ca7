// HCS's compute-system calls against the emulator: containers exist only
// once created, a hot add makes HNS list the container, and the failures
// come as HCS's result document.

#include "emulator_fixture.hpp"

using namespace hns_test;
namespace hr = wincni::hns::hr;

namespace {

// The HRESULT in HCS's result document {"Error":<signed>,"ErrorMessage":...}.
HResult result_code(const HcnReply& reply) {
  return static_cast<HResult>(json::parse(reply.error_record)["Error"].get<std::int32_t>());
}

HcnReply modify(EmulatorFixture& fx, const std::string& container, const json& request) {
  HcsHandle system = nullptr;
  HcnReply opened = fx.emulator.hcs_open(container, &system);
  if (!opened.ok()) return opened;
  HcnReply reply = fx.emulator.hcs_modify(system, request.dump());
  fx.emulator.hcs_close(system);
  return reply;
}

json network_request(const char* request_type, const Guid& endpoint) {
  return {{"ResourceType", "Network"}, {"RequestType", request_type}, {"Settings", endpoint.str()}};
}

std::vector<std::string> shared_containers(EmulatorFixture& fx, const Guid& endpoint) {
  return fx.call("GET", "/endpoints/" + endpoint.str())["Output"].value("SharedContainers", std::vector<std::string>{});
}

// An endpoint on a bridge network, and the running container "pause1".
Guid endpoint_and_container(EmulatorFixture& fx) {
  Guid endpoint;
  REQUIRE(fx.endpoint(fx.network(), R"({"Name":"pause1_cbr0","SchemaVersion":{"Major":2}})", &endpoint).ok());
  HcsHandle system = nullptr;
  REQUIRE(fx.emulator.hcs_create("pause1", "{}", &system).ok());
  fx.emulator.hcs_close(system);
  return endpoint;
}

}  // namespace

TEST_CASE("a compute system exists once created, and only until it is terminated") {
  EmulatorFixture fx;
  HcsHandle system = nullptr;
  HcnReply missing = fx.emulator.hcs_open("pause1", &system);
  CHECK(missing.hr == hr::kSystemNotFound);
  CHECK(system == nullptr);
  CHECK(result_code(missing) == hr::kSystemNotFound);
  CHECK(json::parse(missing.error_record)["ErrorMessage"] ==
        "A Compute System with the specified identifier does not exist.");

  REQUIRE(fx.emulator.hcs_create("pause1", R"({"SystemType":"Container","Owner":"docker"})", &system).ok());
  HcnReply properties = fx.emulator.hcs_properties(system, "");
  REQUIRE(properties.ok());
  CHECK(json::parse(properties.output)["Owner"] == "docker");
  fx.emulator.hcs_close(system);

  HcsHandle again = nullptr;
  CHECK(fx.emulator.hcs_create("PAUSE1", "{}", &again).hr == hr::kSystemAlreadyExists);
  REQUIRE(fx.emulator.hcs_open("Pause1", &system).ok());  // IDs compare ignoring case
  REQUIRE(fx.emulator.hcs_terminate(system).ok());
  CHECK(fx.emulator.hcs_properties(system, "").hr == hr::kSystemNotFound);
  fx.emulator.hcs_close(system);
  CHECK(fx.emulator.hcs_modify(system, "{}").hr == hr::kInvalidHandle);  // closed
  CHECK(fx.emulator.hcs_create("x", "not json", &again).hr == hr::kHcsInvalidJson);
}

TEST_CASE("a hot add puts the container in the endpoint's SharedContainers; remove and terminate take it out") {
  EmulatorFixture fx;
  const Guid endpoint = endpoint_and_container(fx);
  HcsHandle system = nullptr;
  REQUIRE(fx.emulator.hcs_create("app1", "{}", &system).ok());

  CHECK(modify(fx, "pause1", network_request("Add", endpoint)).ok());
  CHECK(modify(fx, "app1", network_request("Add", endpoint)).ok());
  CHECK(shared_containers(fx, endpoint) == std::vector<std::string>{"pause1", "app1"});
  CHECK(modify(fx, "pause1", network_request("Add", endpoint)).hr == hr::kEndpointAlreadyAttached);

  CHECK(modify(fx, "pause1", network_request("Remove", endpoint)).ok());
  CHECK(modify(fx, "pause1", network_request("Remove", endpoint)).hr == hr::kEndpointNotAttached);
  CHECK(shared_containers(fx, endpoint) == std::vector<std::string>{"app1"});
  REQUIRE(fx.emulator.hcs_terminate(system).ok());  // app1
  fx.emulator.hcs_close(system);
  CHECK(shared_containers(fx, endpoint).empty());
}

TEST_CASE("a modify request HCS cannot take") {
  EmulatorFixture fx;
  const Guid endpoint = endpoint_and_container(fx);
  json memory = network_request("Add", endpoint);
  memory["ResourceType"] = "Memory";
  CHECK(modify(fx, "pause1", memory).hr == hr::kNotSupported);
  json update = network_request("Update", endpoint);
  CHECK(modify(fx, "pause1", update).hr == hr::kHcsInvalidJson);
  json no_id = network_request("Add", endpoint);
  no_id["Settings"] = "pause1_cbr0";
  CHECK(modify(fx, "pause1", no_id).hr == hr::kHcsInvalidJson);
  CHECK(modify(fx, "pause1", network_request("Add", Guid::generate())).hr == hr::kEndpointNotFound);
  CHECK(modify(fx, "gone", network_request("Add", endpoint)).hr == hr::kSystemNotFound);
  CHECK(shared_containers(fx, endpoint).empty());
}
