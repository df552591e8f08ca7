// The emulator's load balancers and SDN routes: what hcsshim's HCN tests and kube-proxy's
// winkernel proxier create, list, change and delete.

#include "emulator_fixture.hpp"
#include "wincni/hns/schema/hcn.hpp"

using namespace hns_test;
namespace hr = wincni::hns::hr;
using wincni::hns::HnsVersion;
using wincni::hns::HostComputeLoadBalancer;
using wincni::hns::LoadBalancerPortMapping;

namespace {

constexpr const char* kEndpoint = R"({"Name":"ep","SchemaVersion":{"Major":2,"Minor":0}})";

// hcsshim's AddLoadBalancer: one backend, a TCP mapping 8080 -> 80.
std::string load_balancer(const Guid& backend, unsigned flags = 0, unsigned mapping_flags = 0) {
  json lb = {{"HostComputeEndpoints", {backend.str()}},
             {"SourceVIP", "10.0.0.1"},
             {"FrontendVIPs", {"1.1.1.2", "1.1.1.3"}},
             {"PortMappings", {{{"Protocol", 6}, {"InternalPort", 8080}, {"ExternalPort", 80}}}},
             {"SchemaVersion", {{"Major", 2}, {"Minor", 0}}}};
  if (flags) lb["Flags"] = flags;
  if (mapping_flags) lb["PortMappings"][0]["Flags"] = mapping_flags;
  return lb.dump();
}

}  // namespace

TEST_CASE("a load balancer is created under a new ID, listed, found by ID and deleted") {
  EmulatorFixture fx;
  Guid backend;
  REQUIRE(fx.endpoint(fx.network(), kEndpoint, &backend).ok());
  Guid lb;
  HcnReply created = fx.create(HcnObject::LoadBalancer, load_balancer(backend), &lb);
  REQUIRE_MESSAGE(created.ok(), created.error_record);
  CHECK_FALSE(lb.is_null());
  const json stored = fx.get(HcnObject::LoadBalancer, lb);
  CHECK(stored["ID"] == lb.str());
  CHECK(stored["HostComputeEndpoints"] == json::array({backend.str()}));
  CHECK(stored["FrontendVIPs"] == json::array({"1.1.1.2", "1.1.1.3"}));
  CHECK(stored["PortMappings"][0] == json::parse(R"({"Protocol":6,"InternalPort":8080,"ExternalPort":80})"));
  CHECK_FALSE(stored.contains("Flags"));
  CHECK(fx.enumerate(HcnObject::LoadBalancer) == json::array({lb.str()}));
  CHECK(fx.enumerate(HcnObject::LoadBalancer, {{"ID", lb.str()}}) == json::array({lb.str()}));
  CHECK(fx.enumerate(HcnObject::LoadBalancer, {{"ID", Guid::generate().str()}}) == json::array());

  REQUIRE(fx.emulator.remove(HcnObject::LoadBalancer, lb).ok());
  CHECK(fx.enumerate(HcnObject::LoadBalancer) == json::array());
  HcnHandle handle = nullptr;
  CHECK(fx.emulator.open(HcnObject::LoadBalancer, lb, &handle).hr == hr::kElementNotFound);
  CHECK(fx.emulator.remove(HcnObject::LoadBalancer, lb).hr == hr::kElementNotFound);
}

TEST_CASE("a DSR load balancer keeps its flags; a host before DSR refuses it") {
  EmulatorFixture fx;
  Guid backend;
  REQUIRE(fx.endpoint(fx.network(), kEndpoint, &backend).ok());
  Guid lb;
  REQUIRE(fx.create(HcnObject::LoadBalancer,
                    load_balancer(backend, HostComputeLoadBalancer::kDsr, LoadBalancerPortMapping::kPreserveDip), &lb)
              .ok());
  const json stored = fx.get(HcnObject::LoadBalancer, lb);
  CHECK(stored["Flags"] == 1);
  CHECK(stored["PortMappings"][0]["Flags"] == 8);

  EmulatorConfig old;
  old.hns_version = HnsVersion{9, 2};
  EmulatorFixture before_dsr(old);
  Guid old_backend;
  REQUIRE(before_dsr.endpoint(before_dsr.network(), kEndpoint, &old_backend).ok());
  CHECK(before_dsr.create(HcnObject::LoadBalancer, load_balancer(old_backend, HostComputeLoadBalancer::kDsr)).hr ==
        hr::kInvalidJson);
  CHECK(before_dsr.create(HcnObject::LoadBalancer, load_balancer(old_backend)).ok());
}

TEST_CASE("a load balancer needs existing backends and TCP or UDP; one whose backend is deleted stays listed") {
  EmulatorFixture fx;
  const Guid network = fx.network();
  CHECK(fx.create(HcnObject::LoadBalancer, load_balancer(Guid::generate())).hr == hr::kEndpointNotFound);
  Guid backend;
  REQUIRE(fx.endpoint(network, kEndpoint, &backend).ok());
  json icmp = json::parse(load_balancer(backend));
  icmp["PortMappings"][0]["Protocol"] = 1;
  CHECK(fx.create(HcnObject::LoadBalancer, icmp.dump()).hr == hr::kInvalidJson);

  Guid lb;
  REQUIRE(fx.create(HcnObject::LoadBalancer, load_balancer(backend), &lb).ok());
  REQUIRE(fx.emulator.remove(HcnObject::Endpoint, backend).ok());
  CHECK(fx.get(HcnObject::LoadBalancer, lb)["HostComputeEndpoints"] == json::array({backend.str()}));
}

TEST_CASE("modifying a load balancer replaces it whole, from HNS 15.4 on") {
  EmulatorFixture fx;
  const Guid network = fx.network();
  Guid first;
  Guid second;
  REQUIRE(fx.endpoint(network, kEndpoint, &first).ok());
  REQUIRE(fx.endpoint(network, R"({"Name":"ep2","SchemaVersion":{"Major":2,"Minor":0}})", &second).ok());
  Guid lb;
  REQUIRE(fx.create(HcnObject::LoadBalancer, load_balancer(first), &lb).ok());
  json wanted = json::parse(load_balancer(first));
  wanted["HostComputeEndpoints"] = {first.str(), second.str()};
  HcnHandle handle = nullptr;
  REQUIRE(fx.emulator.open(HcnObject::LoadBalancer, lb, &handle).ok());
  HcnReply modified = fx.emulator.modify(HcnObject::LoadBalancer, handle, wanted.dump());
  fx.emulator.close(HcnObject::LoadBalancer, handle);
  REQUIRE_MESSAGE(modified.ok(), modified.error_record);
  const json stored = fx.get(HcnObject::LoadBalancer, lb);
  CHECK(stored["ID"] == lb.str());
  CHECK(stored["HostComputeEndpoints"] == json::array({first.str(), second.str()}));

  EmulatorConfig older;
  older.hns_version = HnsVersion{15, 3};
  EmulatorFixture before_modify(older);
  Guid backend;
  REQUIRE(before_modify.endpoint(before_modify.network(), kEndpoint, &backend).ok());
  Guid old_lb;
  REQUIRE(before_modify.create(HcnObject::LoadBalancer, load_balancer(backend), &old_lb).ok());
  REQUIRE(before_modify.emulator.open(HcnObject::LoadBalancer, old_lb, &handle).ok());
  CHECK(before_modify.emulator.modify(HcnObject::LoadBalancer, handle, load_balancer(backend)).hr == hr::kNotImpl);
  before_modify.emulator.close(HcnObject::LoadBalancer, handle);
}

TEST_CASE("an SDN route is created for existing endpoints, found by ID, never modified, and deleted") {
  EmulatorFixture fx;
  Guid endpoint;
  REQUIRE(fx.endpoint(fx.network(), kEndpoint, &endpoint).ok());
  // hcsshim's HcnCreateTestSdnRoute.
  json route = {{"HostComputeEndpoints", {endpoint.str()}},
                {"Setting", {{{"DestinationPrefix", "169.254.169.254/24"}, {"NextHop", "127.10.0.34"}}}},
                {"SchemaVersion", {{"Major", 2}, {"Minor", 0}}}};
  Guid id;
  HcnReply created = fx.create(HcnObject::SdnRoute, route.dump(), &id);
  REQUIRE_MESSAGE(created.ok(), created.error_record);
  const json stored = fx.get(HcnObject::SdnRoute, id);
  CHECK(stored["HostComputeEndpoints"] == json::array({endpoint.str()}));
  CHECK(stored["Setting"] == route["Setting"]);
  CHECK(fx.enumerate(HcnObject::SdnRoute, {{"ID", id.str()}}) == json::array({id.str()}));

  HcnHandle handle = nullptr;
  REQUIRE(fx.emulator.open(HcnObject::SdnRoute, id, &handle).ok());
  CHECK(fx.emulator.modify(HcnObject::SdnRoute, handle, route.dump()).hr == hr::kNotImpl);
  fx.emulator.close(HcnObject::SdnRoute, handle);

  json elsewhere = route;
  elsewhere["HostComputeEndpoints"] = {Guid::generate().str()};
  CHECK(fx.create(HcnObject::SdnRoute, elsewhere.dump()).hr == hr::kEndpointNotFound);
  json no_hop = route;
  no_hop["Setting"][0].erase("NextHop");
  CHECK(fx.create(HcnObject::SdnRoute, no_hop.dump()).hr == hr::kInvalidJson);

  REQUIRE(fx.emulator.remove(HcnObject::SdnRoute, id).ok());
  CHECK(fx.enumerate(HcnObject::SdnRoute) == json::array());
}
