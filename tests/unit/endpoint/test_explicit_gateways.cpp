#include <doctest/doctest.h>

#include "addresses.hpp"
#include "wincni/endpoint/explicit_gateways.hpp"
#include "wincni/endpoint/ipam_ranges.hpp"

using namespace wincni;
using namespace wincni::endpoint;
using nlohmann::json;
using test::ip;
using test::prefix;

namespace {

ExplicitGateways from(const char* config_text) {
  json config = json::parse(config_text);
  json ipam = config.value("ipam", json::object());
  return ExplicitGateways(read_ipam_ranges(ipam), read_config_routes(ipam, "routes", "ipam"),
                          read_config_routes(config, "additionalRoutes", ""));
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

TEST_CASE("default routes give the gateway: ipam.routes first, then additionalRoutes") {
  // The legacy wincni example: a route with only a gateway.
  auto legacy = from(R"({"ipam":{"subnet":"10.10.187.64/26","routes":[{"GW":"10.10.187.66"}]}})");
  CHECK(legacy.for_address(ip("10.10.187.70")) == ip("10.10.187.66"));
  CHECK(legacy.for_subnet(prefix("10.10.187.64/26")) == ip("10.10.187.66"));

  auto both = from(R"({"ipam":{"routes":[{"dst":"10.96.0.0/12","gw":"10.1.17.20"},{"dst":"0.0.0.0/0","gw":"10.1.17.3"}]},
                       "additionalRoutes":[{"GW":"10.1.17.9","Dst":"0.0.0.0/0"},{"GW":"10::2","Dst":"::/0"}]})");
  CHECK(both.for_address(ip("10.1.17.50")) == ip("10.1.17.3"));  // not the non-default route's gw
  CHECK(both.for_address(ip("10::50")) == ip("10::2"));
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
