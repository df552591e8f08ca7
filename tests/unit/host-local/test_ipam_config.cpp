// Reading host-local's config: key order, case-insensitivity, requested
// addresses and the reference's messages (config_test.go).

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "ipam_config.hpp"
#include "support.hpp"
#include "wincni/cni/config.hpp"
#include "wincni/cni/error.hpp"

using hostlocal_test::ip;
using hostlocal_test::prefix;
using wincni::cni::Error;
using wincni::cni::NetConf;
using wincni::hostlocal::IpamConfig;
using wincni::hostlocal::StoreLocation;

namespace {

IpamConfig load(std::string_view json, std::string_view cni_args = "") {
  return IpamConfig::load(NetConf::parse(json), cni_args);
}

Error load_error(std::string_view json, std::string_view cni_args = "") {
  return hostlocal_test::thrown_error([&] { load(json, cni_args); });
}

std::vector<std::string> strings(const std::vector<wincni::cni::IpAddress>& ips) {
  std::vector<std::string> out;
  for (const auto& a : ips) out.push_back(a.str());
  return out;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("the old single range becomes range set 0") {
  const IpamConfig c = load(R"({"cniVersion":"0.3.1","name":"mynet","type":"ipvlan","master":"foo0",
    "ipam":{"type":"host-local","subnet":"10.1.2.0/24","rangeStart":"10.1.2.9","rangeEnd":"10.1.2.20",
            "gateway":"10.1.2.30"}})");
  CHECK(c.location.network == "mynet");
  CHECK(c.location.data_dir.empty());
  CHECK(c.cni_version == "0.3.1");
  REQUIRE(c.range_sets.size() == 1);
  REQUIRE(c.range_sets[0].ranges().size() == 1);
  const auto& r = c.range_sets[0].ranges()[0];
  CHECK(r.subnet() == prefix("10.1.2.0/24"));
  CHECK(r.start() == ip("10.1.2.9"));
  CHECK(r.end() == ip("10.1.2.20"));
  CHECK(r.gateway() == ip("10.1.2.30"));
}

TEST_CASE("runtimeConfig.ipRanges come first, then the old range, then ipam.ranges") {
  const IpamConfig c = load(R"({"cniVersion":"0.3.1","name":"mynet","type":"ipvlan",
    "runtimeConfig":{"irrelevant":"a","ipRanges":[[{"subnet":"12.1.3.0/24"}]]},
    "ipam":{"type":"host-local","subnet":"10.1.2.0/24","rangeStart":"10.1.2.9","rangeEnd":"10.1.2.20",
            "gateway":"10.1.2.30",
            "ranges":[[{"subnet":"11.1.2.0/24","rangeStart":"11.1.2.9","rangeEnd":"11.1.2.20","gateway":"11.1.2.30"}],
                      [{"subnet":"10.1.4.0/24"}]]}})");
  REQUIRE(c.range_sets.size() == 4);
  CHECK(c.range_sets[0].str() == "12.1.3.1-12.1.3.254");
  CHECK(c.range_sets[0].ranges()[0].gateway() == ip("12.1.3.1"));
  CHECK(c.range_sets[1].str() == "10.1.2.9-10.1.2.20");
  CHECK(c.range_sets[2].str() == "11.1.2.9-11.1.2.20");
  CHECK(c.range_sets[2].ranges()[0].gateway() == ip("11.1.2.30"));
  CHECK(c.range_sets[3].str() == "10.1.4.1-10.1.4.254");
}

TEST_CASE("keys match case-insensitively at every level, as Go's decoder does") {
  const IpamConfig c = load(R"({"cniVersion":"0.4.0","name":"n","IPAM":{"Type":"host-local","DATADIR":"/x",
    "Ranges":[[{"Subnet":"10.9.0.0/16","RANGESTART":"10.9.0.10","rangeend":"10.9.0.20"}]],
    "ROUTES":[{"DST":"0.0.0.0/0","GW":"10.9.0.1"}]}})");
  CHECK(c.location.data_dir == "/x");
  CHECK(c.range_sets.at(0).str() == "10.9.0.10-10.9.0.20");
  REQUIRE(c.routes.size() == 1);
  CHECK(c.routes[0].dst == prefix("0.0.0.0/0"));
  CHECK(c.routes[0].gw == ip("10.9.0.1"));
}

TEST_CASE("requested addresses: CNI_ARGS IP, then args.cni.ips, then runtimeConfig.ips") {
  const std::string json = R"({"cniVersion":"0.3.1","name":"mynet","type":"ipvlan",
    "args":{"cni":{"ips":["10.1.2.11","11.11.11.11/24","2001:db8:1::11"]}},
    "runtimeConfig":{"ips":["192.168.0.1","192.168.0.5/24","2001:db8::1/64","10.1.2.11"]},
    "ipam":{"type":"host-local","ranges":[[{"subnet":"10.1.2.0/24"}],[{"subnet":"2001:db8:1::/64"}]]}})";
  CHECK(strings(load(json, "IP=10.1.2.10").requested_ips) == Strings{"10.1.2.10", "10.1.2.11", "11.11.11.11",
                                                                     "2001:db8:1::11", "192.168.0.1", "192.168.0.5",
                                                                     "2001:db8::1"});
  CHECK(strings(load(json, "IgnoreUnknown=1;IP=10.1.2.10/24;K8S_POD_NAME=x").requested_ips).front() == "10.1.2.10");
  CHECK(strings(load(json).requested_ips).front() == "10.1.2.11");
}

TEST_CASE("bad requested addresses and CNI_ARGS are refused with codes that say where") {
  const std::string base = R"({"cniVersion":"0.3.1","name":"n","ipam":{"subnet":"10.1.2.0/24"})";
  const Error env = load_error(base + "}", "IP=10.1.2.300");
  CHECK(env.code() == wincni::cni::kInvalidEnvironment);
  CHECK(env.msg() == "invalid IP address 10.1.2.300");
  CHECK(load_error(base + "}", "FOO=bar").code() == wincni::cni::kInvalidEnvironment);

  const Error args = load_error(base + R"(,"args":{"cni":{"ips":["nope"]}}})");
  CHECK(args.code() == wincni::cni::kInvalidNetworkConfig);
  CHECK(args.msg() == "invalid IP address nope");
  CHECK(load_error(base + R"(,"runtimeConfig":{"ips":[5]}})").code() == wincni::cni::kDecodingFailure);
}

TEST_CASE("the reference's config errors, word for word") {
  struct Case {
    const char* json;
    const char* message;
    int code;
  };
  const std::vector<Case> cases = {
      {R"({"cniVersion":"0.3.1","name":"n","type":"bridge"})", "IPAM config missing 'ipam' key", 7},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"type":"host-local"}})", "no IP ranges specified", 7},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"rangeStart":"10.0.0.5"}})", "no IP ranges specified", 7},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"ranges":[[]]}})", "invalid range set 0: empty range set", 7},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"ranges":[[{"subnet":"10.1.2.0/24"}],[{"subnet":"10.1.0.0/16"}]]}})",
       "range set 0 overlaps with 1", 7},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"ranges":[[{"subnet":"10.1.0.0/22"},{"subnet":"10.1.2.0/24"}]]}})",
       "invalid range set 0: subnets 10.1.0.1-10.1.3.254 and 10.1.2.1-10.1.2.254 overlap", 7},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"ranges":[[{"subnet":"10.1.0.0/22"},{"subnet":"2001:db8::/64"}]]}})",
       "invalid range set 0: mixed address families", 7},
      {R"({"cniVersion":"0.2.0","name":"n","ipam":{"ranges":[[{"subnet":"10.1.0.0/24"}],[{"subnet":"10.2.0.0/24"}]]}})",
       "CNI version 0.2.0 does not support more than 1 address per family", 7},
      {R"({"name":"n","ipam":{"ranges":[[{"subnet":"2001:db8:1::/64"}],[{"subnet":"2001:db8:2::/64"}]]}})",
       "CNI version 0.1.0 does not support more than 1 address per family", 7},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"subnet":"10.1.2.5/24"}})",
       "invalid range set 0: Network has host bits set. For a subnet mask of length 24 the network address is 10.1.2.0",
       7},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"ranges":[[{"gateway":"10.0.0.1"}]]}})",
       "invalid range set 0: IP <nil> not v4 nor v6", 7},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"subnet":"10.1.2.0"}})", "invalid CIDR address: 10.1.2.0", 7},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"subnet":""}})", "invalid CIDR address: ", 7},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"subnet":"10.1.2.0/24","gateway":"x"}})", "invalid IP address: x",
       7},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"subnet":"10.1.2.0/24","routes":[{"gw":"10.1.2.1"}]}})",
       "ipam: invalid routes[0].dst: missing", 6},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"ranges":{"subnet":"10.1.2.0/24"}}})",
       "ipam.ranges: expected an array", 6},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"ranges":[[{"subnet":7}]]}})",
       "ipam.ranges[0][0].subnet: expected a string", 6},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"subnet":"10.1.2.0/24","dataDir":false}})",
       "ipam.dataDir: expected a string", 6},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"ranges":[{"subnet":"10.1.2.0/24"}]}})",
       "ipam.ranges[0]: expected an array", 6},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"ranges":[[5]]}})", "ipam.ranges[0][0]: expected an object", 6},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"subnet":"10.1.2.0/24"},"args":{"cni":[]}})",
       "args.cni: expected an object", 6},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"subnet":"10.1.2.0/24"},"runtimeConfig":{"ipRanges":{}}})",
       "runtimeConfig.ipRanges: expected an array", 6},
      {R"({"cniVersion":"0.3.1","name":"n","ipam":{"subnet":"10.1.2.0/24"},"runtimeConfig":{"ips":["10.1.2.9",5]}})",
       "runtimeConfig.ips[1]: expected a string", 6},
  };
  for (const auto& c : cases) {
    const std::string json = c.json;
    CAPTURE(json);
    const Error e = load_error(c.json);
    CHECK(e.msg() == c.message);
    CHECK(e.code() == c.code);
  }
}

TEST_CASE("one range per family is fine for 0.2.0; empty strings mean 'unset'") {
  const IpamConfig c = load(R"({"cniVersion":"0.2.0","name":"n","ipam":{
    "ranges":[[{"subnet":"10.1.0.0/24","gateway":"","rangeStart":""}],[{"subnet":"2001:db8::/64"}]]}})");
  CHECK(c.range_sets.size() == 2);
  CHECK(c.range_sets[0].ranges()[0].gateway() == ip("10.1.0.1"));
}

TEST_CASE("routes keep their destination as written; null counts as absent") {
  const IpamConfig c = load(R"({"cniVersion":"1.0.0","name":"n","ipam":{"subnet":"10.1.2.0/24","resolvConf":null,
    "routes":[{"dst":"192.168.0.1/16","gw":"1.1.1.1"},{"dst":"::/0"}]}})");
  REQUIRE(c.routes.size() == 2);
  CHECK(c.routes[0].dst.str() == "192.168.0.1/16");
  CHECK(c.routes[1].dst == prefix("::/0"));
  CHECK_FALSE(c.routes[1].gw.has_value());
  CHECK(c.resolv_conf.empty());
}

TEST_CASE("DEL and GC need only the store's location") {
  const NetConf conf = NetConf::parse(R"({"cniVersion":"1.0.0","name":"n","ipam":{"dataDir":"/d","subnet":"bad"}})");
  const StoreLocation location = StoreLocation::of(conf);
  CHECK(location.data_dir == "/d");
  CHECK(location.network == "n");
  CHECK_THROWS_AS(StoreLocation::of(NetConf::parse(R"({"cniVersion":"1.0.0","name":"n"})")), Error);
}
