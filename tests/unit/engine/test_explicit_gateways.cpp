#include <doctest/doctest.h>

#include "addresses.hpp"
#include "config/config_route.hpp"
#include "config/explicit_gateways.hpp"
#include "config/ipam_ranges.hpp"

using namespace wincni;
using namespace wincni::engine;
using nlohmann::json;
using test::ip;
using test::prefix;

namespace {

// The gateways of a config; additionalRoutes count only with
// `from_additional_routes` (gatewayFromAdditionalRoutes).
ExplicitGateways from(const char* config_text, bool from_additional_routes = false,
                      std::vector<std::string>* ignored = nullptr) {
  json config = json::parse(config_text);
  json ipam = config.value("ipam", json::object());
  std::vector<std::string> lines;
  ExplicitGateways gateways(
      read_ipam_ranges(ipam), read_config_routes(ipam, "routes", "ipam"),
      gateway_routes(read_config_routes(config, "additionalRoutes", ""), from_additional_routes, lines));
  if (ignored) *ignored = lines;
  return gateways;
}
}  // namespace

TEST_CASE("host-local's default gateway is not explicit") {
  auto gateways = from(R"({"ipam":{"type":"host-local","subnet":"10.244.1.0/24"}})");
  CHECK_FALSE(gateways.for_address(ip("10.244.1.5")));
  CHECK_FALSE(gateways.for_subnet(prefix("10.244.1.0/24")));
}

TEST_CASE("a range's gateway applies to addresses in its subnet") {
  auto gateways = from(R"({"ipam":{"ranges":[
      [{"subnet":"192.168.1.0/24","gateway":"192.168.1.2"},{"subnet":"192.168.2.0/24"}],
      [{"subnet":"fd00::100/120","gateway":"fd00::101"}]]}})");
  CHECK(gateways.for_address(ip("192.168.1.20")) == ip("192.168.1.2"));
  CHECK_FALSE(gateways.for_address(ip("192.168.2.20")));
  CHECK(gateways.for_address(ip("fd00::110")) == ip("fd00::101"));
  CHECK(gateways.for_subnet(prefix("fd00::100/120")) == ip("fd00::101"));
}

TEST_CASE("the old single range's gateway is explicit") {
  auto gateways = from(R"({"ipam":{"subnet":"10.0.0.0/16","gateway":"10.0.0.7"}})");
  CHECK(gateways.for_address(ip("10.0.3.4")) == ip("10.0.0.7"));
}

TEST_CASE("default routes give the gateway: ipam.routes, then (gatewayFromAdditionalRoutes) additionalRoutes") {
  // The legacy wincni example: a route with only a gateway.
  auto legacy = from(R"({"ipam":{"subnet":"10.10.187.64/26","routes":[{"GW":"10.10.187.66"}]}})");
  CHECK(legacy.for_address(ip("10.10.187.70")) == ip("10.10.187.66"));
  CHECK(legacy.for_subnet(prefix("10.10.187.64/26")) == ip("10.10.187.66"));

  // Microsoft's dual-stack template: IPv4 from ipam.routes; IPv6, still
  // unset, from additionalRoutes. The IPv4 additional route does not
  // replace ipam.routes' gateway.
  const char* text =
      R"({"ipam":{"routes":[{"dst":"10.96.0.0/12","gw":"10.1.17.20"},{"dst":"0.0.0.0/0","gw":"10.1.17.3"}]},
                         "additionalRoutes":[{"GW":"10.1.17.9","Dst":"0.0.0.0/0"},{"GW":"10::2","Dst":"::/0"}]})";
  auto both = from(text, true);
  CHECK(both.for_address(ip("10.1.17.50")) == ip("10.1.17.3"));  // not the non-default route's gw
  CHECK(both.for_address(ip("10::50")) == ip("10::2"));
  CHECK(both.for_subnet(prefix("10::/120")) == ip("10::2"));
  auto additional_only = from(R"({"additionalRoutes":[{"GW":"10.1.17.9","Dst":"0.0.0.0/0"}]})", true);
  CHECK(additional_only.for_address(ip("10.1.17.50")) == ip("10.1.17.9"));
}

TEST_CASE("additionalRoutes give no gateway without the flag, nor without an exact default dst") {
  std::vector<std::string> ignored;
  const char* text = R"({"additionalRoutes":[{"GW":"10.1.17.9","Dst":"0.0.0.0/0"},{"GW":"10::2","Dst":"::/0"},
                                             {"GW":"10.1.17.7"},{"Dst":"10.96.0.0/12","GW":"10.1.17.8"}]})";
  auto without_flag = from(text, false, &ignored);
  CHECK_FALSE(without_flag.for_address(ip("10.1.17.50")));
  CHECK_FALSE(without_flag.for_address(ip("10::50")));
  CHECK(ignored == std::vector<std::string>{"additionalRoutes[0]: a default route gives the pods' gateway only with "
                                            "optionalFlags.gatewayFromAdditionalRoutes; ignored",
                                            "additionalRoutes[1]: a default route gives the pods' gateway only with "
                                            "optionalFlags.gatewayFromAdditionalRoutes; ignored",
                                            "additionalRoutes[2]: a default route gives the pods' gateway only with "
                                            "optionalFlags.gatewayFromAdditionalRoutes; ignored"});

  // With the flag, a route with no dst still does not count (Microsoft's
  // plugin compares the dst with 0.0.0.0/0 and ::/0 exactly).
  auto no_dst =
      from(R"({"additionalRoutes":[{"GW":"10.1.17.7"},{"GW":"10.1.17.9","Dst":"0.0.0.0/0"}]})", true, &ignored);
  CHECK(no_dst.for_address(ip("10.1.17.50")) == ip("10.1.17.9"));
  CHECK(ignored == std::vector<std::string>{"additionalRoutes[0]: has no dst; gatewayFromAdditionalRoutes takes the "
                                            "gateway of a dst of exactly 0.0.0.0/0 or ::/0 only; ignored"});
}

TEST_CASE("the first exact default route of a family wins") {
  auto gateways = from(
      R"({"additionalRoutes":[{"GW":"10.1.17.9","Dst":"0.0.0.0/0"},{"GW":"10.1.17.10","Dst":"0.0.0.0/0"}]})", true);
  CHECK(gateways.for_address(ip("10.1.17.50")) == ip("10.1.17.9"));
}

TEST_CASE("rewriting a range start keeps the config's spelling") {
  json ipam = json::parse(R"({"type":"host-local","Subnet":"10.1.0.0/24","RangeStart":"10.1.0.1"})");
  auto ranges = read_ipam_ranges(ipam);
  REQUIRE(ranges.size() == 1);
  CHECK(ranges[0].range_start == ip("10.1.0.1"));
  json rewritten = with_range_start(ipam, ranges[0], ip("10.1.0.3"));
  CHECK(rewritten["RangeStart"] == "10.1.0.3");
  CHECK_FALSE(rewritten.contains("rangeStart"));

  json sets = json::parse(R"({"ranges":[[{"subnet":"10.1.0.0/24"}],[{"subnet":"fd00::/64"}]]})");
  ranges = read_ipam_ranges(sets);
  REQUIRE(ranges.size() == 2);
  CHECK(ranges[1].set == 1u);
  rewritten = with_range_start(sets, ranges[1], ip("fd00::3"));
  CHECK(rewritten["ranges"][1][0]["rangeStart"] == "fd00::3");
  CHECK_FALSE(rewritten["ranges"][0][0].contains("rangeStart"));
}
