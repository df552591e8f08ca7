// The delegate config flannel builds, compared whole as JSON: the
// reference's test vectors (flannel-io/cni-plugin, flannel_linux_test.go,
// docs/flannel.md) as they come out on Windows.

#include <doctest/doctest.h>

#include "delegate_config.hpp"
#include "fixture_configs.hpp"
#include "wincni/cni/error.hpp"

using namespace wincni;
using flannel::delegate_config;
using nlohmann::json;

namespace {

// The reference's standard environment: 10.1.0.0/16, node 10.1.17.1/24, MTU 1472, ipMasq.
const char* kStandardEnv =
    "FLANNEL_NETWORK=10.1.0.0/16\nFLANNEL_SUBNET=10.1.17.1/24\nFLANNEL_MTU=1472\nFLANNEL_IPMASQ=true\n";

json delegate_for(const std::string& config, std::string_view env) {
  return delegate_config(flannel::read_flannel_config(cni::NetConf::parse(config)),
                         flannel::parse_subnet_env(env, "subnet.env"));
}

}  // namespace

TEST_CASE("host-gw, IPv4: win-bridge with the reference's keys, ranges that skip flanneld's .2 and the cluster route") {
  const json expected = json::parse(R"({
    "cniVersion": "0.2.0", "name": "cni-flannel", "type": "win-bridge",
    "ipMasq": true, "ipMasqNetwork": "10.1.0.0/16",
    "ipam": {"type": "host-local", "ranges": [[{"subnet": "10.1.17.0/24", "rangeStart": "10.1.17.3"}]],
             "routes": [{"dst": "10.1.0.0/16"}]}})");
  CHECK(delegate_for(R"({"name":"cni-flannel","type":"flannel"})", kStandardEnv) == expected);
}

TEST_CASE("two cluster networks: two routes, one range; ipMasqNetwork is the first") {
  const json delegate = delegate_for(R"({"name":"n","type":"flannel","cniVersion":"1.0.0"})",
                                     test::subnet_env_fixture("two-networks.env"));
  CHECK(delegate["ipam"]["routes"] == json::parse(R"([{"dst":"10.1.0.0/16"},{"dst":"192.168.0.0/16"}])"));
  CHECK(delegate["ipam"]["ranges"].size() == 1);
  CHECK(delegate["ipMasqNetwork"] == "10.1.0.0/16");
  CHECK(delegate["cniVersion"] == "1.0.0");
}

TEST_CASE("dual stack on host-gw: ranges v4 then v6, routes v4 then v6") {
  const json delegate = delegate_for(R"({"name":"n","type":"flannel"})", test::subnet_env_fixture("dual-stack.env"));
  CHECK(delegate["ipam"]["ranges"] == json::parse(R"([[{"subnet":"10.244.4.0/24","rangeStart":"10.244.4.3"}],
                                                       [{"subnet":"fd00:10:244:4::/64","rangeStart":"fd00:10:244:4::3"}]])"));
  CHECK(delegate["ipam"]["routes"] == json::parse(R"([{"dst":"10.244.0.0/16"},{"dst":"fd00:10:244::/56"}])"));
}

TEST_CASE("IPv6 only: no ipMasqNetwork (the reference panics); on vxlan it is refused with code 7") {
  const json delegate = delegate_for(R"({"name":"n","type":"flannel"})", test::subnet_env_fixture("ipv6-only.env"));
  CHECK_FALSE(delegate.contains("ipMasqNetwork"));
  CHECK(delegate["ipMasq"] == false);
  CHECK(delegate["ipam"]["ranges"].size() == 1);
  try {
    delegate_for(R"({"name":"n","type":"flannel","delegate":{"type":"win-overlay"}})",
                 test::subnet_env_fixture("ipv6-only.env"));
    FAIL("no error");
  } catch (const cni::Error& e) {
    CHECK(e.code() == 7);
    CHECK(e.msg().find("carries IPv4 only") != std::string::npos);
  }
}

TEST_CASE("vxlan: win-overlay gets the plain subnet (HNS's gateway is .1, nothing at .2) and no IPv6") {
  const json delegate = delegate_for(R"({"name":"flannel.4096","type":"flannel","delegate":{"type":"win-overlay"}})",
                                     test::subnet_env_fixture("dual-stack.env"));
  CHECK(delegate["ipam"]["ranges"] == json::parse(R"([[{"subnet":"10.244.4.0/24"}]])"));
  CHECK(delegate["ipam"]["routes"] == json::parse(R"([{"dst":"10.244.0.0/16"}])"));
  CHECK(flannel::backend_of(flannel::read_flannel_config(cni::NetConf::parse(
            R"({"name":"n","type":"flannel","delegate":{"type":"sdnoverlay"}})"))) == flannel::Backend::Vxlan);
}

TEST_CASE("the user's ipam is merged as on Linux: type and unknown keys kept, routes first, ranges set") {
  const json delegate = delegate_for(
      R"({"name":"n","type":"flannel","ipam":{"type":"my-ipam","unknown-param":"unknown-value",
          "routes":[{"dst":"10.96.0.0/12"},{"dst":"192.168.244.0/24","gw":"10.1.17.20","extra":1}]}})",
      kStandardEnv);
  CHECK(delegate["ipam"] == json::parse(R"({"type":"my-ipam","unknown-param":"unknown-value",
      "ranges":[[{"subnet":"10.1.17.0/24","rangeStart":"10.1.17.3"}]],
      "routes":[{"dst":"10.96.0.0/12"},{"dst":"192.168.244.0/24","gw":"10.1.17.20"},{"dst":"10.1.0.0/16"}]})"));
  try {
    delegate_for(R"({"name":"n","type":"flannel","ipam":{"routes":[{"gw":"10.1.17.1"}]}})", kStandardEnv);
    FAIL("no error");
  } catch (const cni::Error& e) {
    CHECK(e.msg().starts_with("failed to assemble Delegate IPAM: failed to read IPAM routes: "));
  }
}

TEST_CASE("the user's delegate keys are kept; ipMasq and ipMasqNetwork only filled in; runtimeConfig passed on") {
  const json delegate = delegate_for(
      R"({"name":"cbr0","type":"flannel","cniVersion":"1.1.0","capabilities":{"portMappings":true},
          "runtimeConfig":{"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp"}]},
          "delegate":{"apiVersion":2,"ipMasq":false,"cniVersion":"0.3.1","dns":{"nameservers":["10.96.0.10"]},
                      "policies":[{"name":"EndpointPolicy","value":{"Type":"OutBoundNAT"}}]}})",
      kStandardEnv);
  CHECK(delegate["apiVersion"] == 2);
  CHECK(delegate["ipMasq"] == false);
  CHECK(delegate["ipMasqNetwork"] == "10.1.0.0/16");
  CHECK(delegate["cniVersion"] == "1.1.0");
  CHECK(delegate["dns"]["nameservers"][0] == "10.96.0.10");
  CHECK(delegate["policies"].size() == 1);
  CHECK(delegate["runtimeConfig"]["portMappings"][0]["hostPort"] == 8080);
  CHECK(delegate["capabilities"]["portMappings"] == true);
}

TEST_CASE("the flannel fixtures of the reference and of Microsoft build their delegate") {
  const json reference =
      delegate_for(std::string(test::fixture_config("ref-flannel-win-bridge-v2.conf")), kStandardEnv);
  CHECK(reference["type"] == "win-bridge");
  CHECK(reference["loopbackDSR"] == true);
  CHECK(reference["policies"].size() == 3);
  const json microsoft = delegate_for(test::with_plain_spaces(test::fixture_config("ms-flannel_overlay.conf")),
                                      test::subnet_env_fixture("vxlan-v4-crlf.env"));
  CHECK(microsoft["type"] == "sdnoverlay");
  CHECK(microsoft["ipam"]["ranges"] == json::parse(R"([[{"subnet":"10.244.4.0/24"}]])"));
  CHECK(microsoft["AdditionalArgs"].size() == 3);
}

TEST_CASE(
    "serviceCIDR with host bits or inside the pod network: ADD's policies refuse it with code 7; DEL's config builds") {
  const flannel::SubnetEnv env = flannel::parse_subnet_env(kStandardEnv, "subnet.env");
  const auto refusal = [&](const std::string& service_cidr) -> std::string {
    const std::string config = R"({"name":"cni-flannel","type":"flannel","serviceCIDR":")" + service_cidr + R"("})";
    const flannel::FlannelConfig read = flannel::read_flannel_config(cni::NetConf::parse(config));
    CHECK_NOTHROW(delegate_config(read, env));  // what DEL and GC build
    try {
      flannel::policy_sources(read, env);
    } catch (const cni::Error& error) {
      return std::to_string(error.code()) + " " + error.msg();
    }
    return "accepted";
  };
  CHECK(refusal("10.96.0.0/12") == "accepted");
  CHECK(refusal("10.96.0.10/12") == "7 serviceCIDR: \"10.96.0.10/12\" has host bits set; the network is 10.96.0.0/12");
  CHECK(refusal("10.0.0.0/8") ==
        "7 serviceCIDR: 10.0.0.0/8 overlaps the pod network 10.1.0.0/16 (subnet.env's FLANNEL_NETWORK): services and "
        "pods need networks of their own");
  CHECK(refusal("10.1.200.0/24") != "accepted");
}
