#include <doctest/doctest.h>

#include <string>

#include "cni_test_helpers.hpp"
#include "golden_results.hpp"
#include "ip_literals.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/result.hpp"

// Expected JSON texts below marked "Go:" were produced by Go's libcni
// (containernetworking/cni pkg/types at HEAD, json.Marshal) from the same
// input, and reviewed against docs/reference/cni-protocol.md §1.

using wincni::cni::Dns;
using wincni::cni::Error;
using wincni::cni::Interface;
using wincni::cni::IpAddress;
using wincni::cni::IpConfig;
using wincni::cni::IpPrefix;
using wincni::cni::Result;
using wincni::cni::Route;
using wincni::test::golden_text;
using wincni::test::ip;
using wincni::test::kGoldenResults;
using wincni::test::prefix;
using wincni::test::thrown_error;

namespace {

const char* const kAllVersions[] = {"0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"};

// The result every golden file holds.
Result golden_model() {
  Result r;
  Interface eth0;
  eth0.name = "eth0";
  eth0.mac = "0e:2a:5f:10:00:05";
  eth0.sandbox = "/var/run/netns/cni-1234";
  eth0.mtu = 1450;
  eth0.socket_path = "/run/vhost/sock";
  eth0.pci_id = "0000:04:00.5";
  Interface bridge;
  bridge.name = "cbr0";
  bridge.mac = "00:15:5d:00:00:01";
  r.interfaces = {eth0, bridge};
  r.ips = {
      {prefix("10.244.1.5/24"), ip("10.244.1.1"), 0},
      {prefix("fd00:10:244:1::5/64"), ip("fd00:10:244:1::1"), 0},
  };
  Route default_v4;
  default_v4.dst = prefix("0.0.0.0/0");
  default_v4.gw = ip("10.244.1.1");
  default_v4.mtu = 1400;
  default_v4.advmss = 1360;
  default_v4.priority = 100;
  default_v4.table = 0;
  default_v4.scope = 253;
  Route services_v6;
  services_v6.dst = prefix("fd00:96::/108");
  services_v6.gw = ip("fd00:10:244:1::1");
  r.routes = {default_v4, services_v6};
  r.dns.nameservers = {"10.96.0.10", "fd00:96::a"};
  r.dns.domain = "cluster.local";
  r.dns.search = {"default.svc.cluster.local", "svc.cluster.local"};
  r.dns.options = {"ndots:5", "timeout:1"};
  return r;
}

// Golden files are compact JSON plus one newline.
std::string as_file(const nlohmann::ordered_json& j) { return j.dump() + "\n"; }

std::string encoded(const Result& r, std::string_view version) { return r.encode(version).dump(); }

Result decoded(std::string_view text, std::string_view version) {
  return Result::decode(nlohmann::json::parse(text), version);
}

nlohmann::json golden_json(std::string_view version) { return nlohmann::json::parse(golden_text(version)); }

Result one_address(std::string_view address) {
  Result r;
  r.ips.push_back({prefix(address), std::nullopt, std::nullopt});
  return r;
}

}  // namespace

TEST_CASE("the golden result encodes byte for byte in every version") {
  REQUIRE(std::size(kGoldenResults) == std::size(kAllVersions));
  Result model = golden_model();
  for (const auto& golden : kGoldenResults) {
    INFO("version ", std::string(golden.version));
    CHECK(as_file(model.encode(golden.version)) == golden.text);
  }
}

TEST_CASE("every golden file decodes and re-encodes to itself") {
  for (const auto& golden : kGoldenResults) {
    INFO("version ", std::string(golden.version));
    Result r = Result::decode(nlohmann::json::parse(golden.text), golden.version);
    CHECK(as_file(r.encode(golden.version)) == golden.text);
  }
}

TEST_CASE("a result decoded from any version encodes as any other version like Go converts it") {
  // Up from 0.2: ips from ip4 then ip6, routes ip4's then ip6's, no interfaces.
  Result from_02 = Result::decode(golden_json("0.2.0"), "0.2.0");
  CHECK(from_02.interfaces.empty());
  REQUIRE(from_02.ips.size() == 2);
  CHECK_FALSE(from_02.ips[0].interface.has_value());
  // Go:
  CHECK(encoded(from_02, "1.1.0") ==
        R"({"cniVersion":"1.1.0","dns":{"domain":"cluster.local","nameservers":["10.96.0.10","fd00:96::a"],)"
        R"("options":["ndots:5","timeout:1"],"search":["default.svc.cluster.local","svc.cluster.local"]},)"
        R"("ips":[{"address":"10.244.1.5/24","gateway":"10.244.1.1"},)"
        R"({"address":"fd00:10:244:1::5/64","gateway":"fd00:10:244:1::1"}],)"
        R"("routes":[{"dst":"0.0.0.0/0","gw":"10.244.1.1"},{"dst":"fd00:96::/108","gw":"fd00:10:244:1::1"}]})");
  // Go:
  CHECK(encoded(from_02, "0.4.0") ==
        R"({"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.244.1.5/24","gateway":"10.244.1.1"},)"
        R"({"version":"6","address":"fd00:10:244:1::5/64","gateway":"fd00:10:244:1::1"}],)"
        R"("routes":[{"dst":"0.0.0.0/0","gw":"10.244.1.1"},{"dst":"fd00:96::/108","gw":"fd00:10:244:1::1"}],)"
        R"("dns":{"nameservers":["10.96.0.10","fd00:96::a"],"domain":"cluster.local",)"
        R"("search":["default.svc.cluster.local","svc.cluster.local"],"options":["ndots:5","timeout:1"]}})");

  // Down from 0.4 to 1.x keeps interfaces and index 0, loses nothing of 0.4's.
  Result from_04 = Result::decode(golden_json("0.4.0"), "0.4.0");
  CHECK_FALSE(from_04.interfaces[0].mtu.has_value());  // 0.4 has no interface mtu
  CHECK(from_04.routes[0].mtu == 1400);                // but routes keep theirs
  // Go:
  CHECK(
      encoded(from_04, "1.0.0") ==
      R"({"cniVersion":"1.0.0","dns":{"domain":"cluster.local","nameservers":["10.96.0.10","fd00:96::a"],)"
      R"("options":["ndots:5","timeout:1"],"search":["default.svc.cluster.local","svc.cluster.local"]},)"
      R"("interfaces":[{"mac":"0e:2a:5f:10:00:05","name":"eth0","sandbox":"/var/run/netns/cni-1234"},)"
      R"({"mac":"00:15:5d:00:00:01","name":"cbr0"}],)"
      R"("ips":[{"address":"10.244.1.5/24","gateway":"10.244.1.1","interface":0},)"
      R"({"address":"fd00:10:244:1::5/64","gateway":"fd00:10:244:1::1","interface":0}],)"
      R"("routes":[{"advmss":1360,"dst":"0.0.0.0/0","gw":"10.244.1.1","mtu":1400,"priority":100,"scope":253,"table":0},)"
      R"({"dst":"fd00:96::/108","gw":"fd00:10:244:1::1"}]})");

  // kGoldenResults is in ascending version order. Any golden, re-encoded in
  // any lower version, equals that version's golden: nothing the lower
  // version shows is missing from a higher one.
  for (size_t from = 0; from < std::size(kGoldenResults); ++from) {
    Result r = Result::decode(nlohmann::json::parse(kGoldenResults[from].text), kGoldenResults[from].version);
    for (size_t to = 0; to <= from; ++to) {
      INFO("from ", std::string(kGoldenResults[from].version), " to ", std::string(kGoldenResults[to].version));
      CHECK(as_file(r.encode(kGoldenResults[to].version)) == kGoldenResults[to].text);
    }
  }
}

TEST_CASE("down to 0.1/0.2: first address of each family, routes by dst family") {
  // Go:
  const char* input =
      R"({"cniVersion":"1.1.0","interfaces":[{"name":""}],"ips":[{"address":"fd00::5/64"},)"
      R"({"address":"10.0.0.5/24","gateway":"10.0.0.1","interface":0},{"address":"10.0.1.5/24","interface":1},)"
      R"({"address":"fd01::5/64","gateway":"fd01::1"}],)"
      R"("routes":[{"dst":"fd02::/64"},{"dst":"10.9.0.0/16","gw":"10.0.0.1","mtu":0,"table":5}]})";
  Result r = decoded(input, "1.1.0");
  CHECK(
      encoded(r, "0.2.0") ==
      R"({"cniVersion":"0.2.0","ip4":{"ip":"10.0.0.5/24","gateway":"10.0.0.1","routes":[{"dst":"10.9.0.0/16","gw":"10.0.0.1"}]},)"
      R"("ip6":{"ip":"fd00::5/64","routes":[{"dst":"fd02::/64"}]},"dns":{}})");
  CHECK(
      encoded(r, "0.1.0") ==
      R"({"cniVersion":"0.1.0","ip4":{"ip":"10.0.0.5/24","gateway":"10.0.0.1","routes":[{"dst":"10.9.0.0/16","gw":"10.0.0.1"}]},)"
      R"("ip6":{"ip":"fd00::5/64","routes":[{"dst":"fd02::/64"}]},"dns":{}})");
  // The interface name is never omitted, "version" follows the address, a
  // zero mtu is absent, a zero-or-more table is kept.
  CHECK(
      encoded(r, "0.4.0") ==
      R"({"cniVersion":"0.4.0","interfaces":[{"name":""}],"ips":[{"version":"6","address":"fd00::5/64"},)"
      R"({"version":"4","interface":0,"address":"10.0.0.5/24","gateway":"10.0.0.1"},)"
      R"({"version":"4","interface":1,"address":"10.0.1.5/24"},{"version":"6","address":"fd01::5/64","gateway":"fd01::1"}],)"
      R"("routes":[{"dst":"fd02::/64"},{"dst":"10.9.0.0/16","gw":"10.0.0.1","table":5}],"dns":{}})");

  // A route whose family has no address is dropped. Go:
  Result v4_only = decoded(
      R"({"cniVersion":"1.0.0","ips":[{"address":"10.0.0.5/24"}],"routes":[{"dst":"fd02::/64","gw":"fd00::1"},{"dst":"0.0.0.0/0"}]})",
      "1.0.0");
  CHECK(encoded(v4_only, "0.2.0") ==
        R"({"cniVersion":"0.2.0","ip4":{"ip":"10.0.0.5/24","routes":[{"dst":"0.0.0.0/0"}]},"dns":{}})");
  CHECK(encoded(v4_only, "0.3.1") == R"({"cniVersion":"0.3.1","ips":[{"version":"4","address":"10.0.0.5/24"}],)"
                                     R"("routes":[{"dst":"fd02::/64","gw":"fd00::1"},{"dst":"0.0.0.0/0"}],"dns":{}})");
}

TEST_CASE("0.1/0.2 cannot express a result without addresses") {
  Result r;
  r.interfaces.push_back({"eth0", "", "", std::nullopt, "", ""});
  for (std::string version : {"0.1.0", "0.2.0"}) {
    CAPTURE(version);
    Error e = thrown_error([&] { (void)r.encode(version); });
    CHECK(e.code() == wincni::cni::kIncompatibleVersion);
    CHECK(e.msg() == "cannot convert: no valid IP addresses");
    CHECK(e.details().find(version) != std::string::npos);
  }
  // Go:
  CHECK(encoded(r, "0.4.0") == R"({"cniVersion":"0.4.0","interfaces":[{"name":"eth0"}],"dns":{}})");
  CHECK(encoded(r, "1.1.0") == R"({"cniVersion":"1.1.0","interfaces":[{"name":"eth0"}]})");
  CHECK(encoded(Result{}, "1.0.0") == R"({"cniVersion":"1.0.0"})");
}

TEST_CASE("interface index: 0 is kept, a missing one omitted, others as they are") {
  Result r = one_address("10.0.0.5/24");
  r.ips[0].interface = 0;
  CHECK(encoded(r, "1.1.0") == R"({"cniVersion":"1.1.0","ips":[{"address":"10.0.0.5/24","interface":0}]})");
  CHECK(encoded(r, "0.3.0") ==
        R"({"cniVersion":"0.3.0","ips":[{"version":"4","interface":0,"address":"10.0.0.5/24"}],"dns":{}})");
  r.ips[0].interface.reset();
  CHECK(encoded(r, "1.1.0") == R"({"cniVersion":"1.1.0","ips":[{"address":"10.0.0.5/24"}]})");

  Result back = decoded(R"({"cniVersion":"1.1.0","ips":[{"address":"10.0.0.5/24","interface":0}]})", "1.1.0");
  CHECK(back.ips[0].interface == 0);
  back = decoded(R"({"cniVersion":"1.1.0","ips":[{"address":"10.0.0.5/24","interface":-1}]})", "1.1.0");
  CHECK(back.ips[0].interface == -1);  // Go keeps it too
  back = decoded(R"({"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.0.0.5/24"}]})", "0.4.0");
  CHECK_FALSE(back.ips[0].interface.has_value());
}

TEST_CASE("1.x to 0.3/0.4 derives ips[].version from the address") {
  Result r = decoded(R"({"cniVersion":"1.1.0","ips":[{"address":"fd00::5/64"},{"address":"10.0.0.5/24"}]})", "1.1.0");
  auto j = r.encode("0.3.1");
  CHECK(j["ips"][0]["version"] == "6");
  CHECK(j["ips"][1]["version"] == "4");
  // 1.x has no "version"; one given anyway is ignored, 0.x's is re-derived.
  r = decoded(R"({"cniVersion":"1.0.0","ips":[{"version":"6","address":"10.0.0.5/24"}]})", "1.0.0");
  CHECK(encoded(r, "1.0.0") == R"({"cniVersion":"1.0.0","ips":[{"address":"10.0.0.5/24"}]})");
  CHECK(r.encode("0.4.0")["ips"][0]["version"] == "4");
}

TEST_CASE("1.1 interface and route extras") {
  Result r = decoded(R"({"cniVersion":"1.1.0","interfaces":[{"name":"eth0","mtu":9000,"socketPath":"/s","pciID":"p"}],)"
                     R"("routes":[{"dst":"10.0.0.0/8","mtu":1500,"advmss":0,"scope":0}]})",
                     "1.1.0");
  REQUIRE(r.interfaces.size() == 1);
  CHECK(r.interfaces[0].mtu == 9000);
  CHECK(r.interfaces[0].socket_path == "/s");
  CHECK(r.interfaces[0].pci_id == "p");
  CHECK(r.routes[0].mtu == 1500);
  CHECK_FALSE(r.routes[0].advmss.has_value());  // Go's int: 0 means unset
  CHECK(r.routes[0].scope == 0);                // Go's *int: 0 is a value
  CHECK_FALSE(r.routes[0].table.has_value());
  // Go:
  CHECK(encoded(r, "1.1.0") ==
        R"({"cniVersion":"1.1.0","interfaces":[{"mtu":9000,"name":"eth0","pciID":"p","socketPath":"/s"}],)"
        R"("routes":[{"dst":"10.0.0.0/8","mtu":1500,"scope":0}]})");
  CHECK(
      encoded(r, "0.4.0") ==
      R"({"cniVersion":"0.4.0","interfaces":[{"name":"eth0"}],"routes":[{"dst":"10.0.0.0/8","mtu":1500,"scope":0}],"dns":{}})");

  // 0.4 has no interface extras to read.
  Result from_04 = decoded(R"({"cniVersion":"0.4.0","interfaces":[{"name":"eth0","mtu":9000,"pciID":"p"}]})", "0.4.0");
  CHECK_FALSE(from_04.interfaces[0].mtu.has_value());
  CHECK(from_04.interfaces[0].pci_id.empty());
}

TEST_CASE("a missing or empty cniVersion means the requested version") {
  Result r = decoded(R"({"ips":[{"address":"10.0.0.5/24"}]})", "0.4.0");
  CHECK(r.ips.size() == 1);
  r = decoded(R"({"cniVersion":"","ip4":{"ip":"10.0.0.5/24"}})", "0.2.0");
  CHECK(r.ips.size() == 1);
  r = decoded(R"({"cniVersion":null,"ips":[{"address":"10.0.0.5/24"}]})", "1.1.0");
  CHECK(r.ips.size() == 1);
  // Within a family any member version is accepted.
  CHECK_NOTHROW(decoded(R"({"cniVersion":"0.1.0"})", "0.2.0"));
  CHECK_NOTHROW(decoded(R"({"cniVersion":"0.3.0"})", "0.4.0"));
  CHECK_NOTHROW(decoded(R"({"cniVersion":"1.0.0"})", "1.1.0"));
}

TEST_CASE("a result from another version family is a decoding failure with Go's message") {
  struct Case {
    std::string json;
    std::string version;
    std::string message;
  };
  const Case cases[] = {
      {R"({"cniVersion":"0.2.0"})", "1.1.0",
       R"(result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is "0.2.0")"},
      {R"({"cniVersion":"1.1.0"})", "0.4.0",
       R"(result type supports [0.3.0 0.3.1 0.4.0] but unmarshalled CNIVersion is "1.1.0")"},
      {R"({"cniVersion":"1.1.0"})", "0.2.0",
       R"(result type supports [ 0.1.0 0.2.0] but unmarshalled CNIVersion is "1.1.0")"},
      {R"({"cniVersion":"7.0.0"})", "1.0.0",
       R"(result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is "7.0.0")"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.json);
    Error e = thrown_error([&] { decoded(c.json, c.version); });
    CHECK(e.code() == wincni::cni::kDecodingFailure);
    CHECK(e.msg() == c.message);
  }
}

TEST_CASE("an unknown version is an incompatible-version error") {
  for (std::string version : {"0.5.0", "", "1.1", "v1.0.0", "2.0.0"}) {
    CAPTURE(version);
    Error decode_error = thrown_error([&] { decoded("{}", version); });
    CHECK(decode_error.code() == wincni::cni::kIncompatibleVersion);
    CHECK(decode_error.msg() == std::string("unsupported CNI result version \"") + version + "\"");
    Error encode_error = thrown_error([&] { (void)golden_model().encode(version); });
    CHECK(encode_error.code() == wincni::cni::kIncompatibleVersion);
    CHECK(encode_error.msg() == decode_error.msg());
  }
}

TEST_CASE("decode_in_own_version reads whatever version the result declares") {
  Result r = Result::decode_in_own_version(golden_json("0.2.0"), "1.1.0");
  CHECK(r.ips.size() == 2);
  CHECK(r.interfaces.empty());
  r = Result::decode_in_own_version(nlohmann::json::parse(R"({"ips":[{"address":"10.0.0.5/24","interface":0}]})"),
                                    "1.0.0");
  CHECK(r.ips[0].interface == 0);
  Error e =
      thrown_error([] { Result::decode_in_own_version(nlohmann::json::parse(R"({"cniVersion":"1.2.0"})"), "1.1.0"); });
  CHECK(e.code() == wincni::cni::kIncompatibleVersion);
  CHECK(e.msg() == R"(unsupported CNI result version "1.2.0")");
}

TEST_CASE("keys are matched ignoring case, like Go's decoder") {
  Result r =
      decoded(R"({"CNIVersion":"0.4.0","Interfaces":[{"Name":"eth0","MAC":"aa:bb:cc:dd:ee:ff"}],)"
              R"("IPs":[{"Version":"4","Interface":0,"Address":"10.0.0.5/24","Gateway":"10.0.0.1"}],)"
              R"("Routes":[{"Dst":"0.0.0.0/0","GW":"10.0.0.1"}],"DNS":{"Nameservers":["10.0.0.10"],"Search":["a"]}})",
              "0.4.0");
  REQUIRE(r.interfaces.size() == 1);
  CHECK(r.interfaces[0].mac == "aa:bb:cc:dd:ee:ff");
  REQUIRE(r.ips.size() == 1);
  CHECK(r.ips[0].gateway == ip("10.0.0.1"));
  CHECK(r.routes.at(0).gw == ip("10.0.0.1"));
  CHECK(r.dns.nameservers == std::vector<std::string>{"10.0.0.10"});
  CHECK(r.dns.search == std::vector<std::string>{"a"});

  Result legacy = decoded(R"({"IP4":{"IP":"10.0.0.5/24","Routes":[{"dst":"0.0.0.0/0"}]}})", "0.2.0");
  CHECK(legacy.ips.at(0).address == prefix("10.0.0.5/24"));
  CHECK(legacy.routes.size() == 1);
}

TEST_CASE("addresses keep host bits and print canonically") {
  Result r = decoded(R"({"cniVersion":"1.0.0","ips":[{"address":"FD00:0::0005/64"}],"routes":[{"dst":"10.1.2.3/8"}]})",
                     "1.0.0");
  CHECK(encoded(r, "1.0.0") ==
        R"({"cniVersion":"1.0.0","ips":[{"address":"fd00::5/64"}],"routes":[{"dst":"10.1.2.3/8"}]})");
}

TEST_CASE("empty optional fields are omitted; an empty gateway reads as none") {
  Result r = decoded(
      R"({"cniVersion":"0.4.0","interfaces":[{"name":"eth0","mac":"","sandbox":""}],)"
      R"("ips":[{"version":"4","address":"10.0.0.5/24","gateway":""}],"routes":[{"dst":"0.0.0.0/0","gw":""}],"dns":{"domain":""}})",
      "0.4.0");
  CHECK_FALSE(r.ips[0].gateway.has_value());
  CHECK_FALSE(r.routes[0].gw.has_value());
  CHECK(r.dns.empty());
  CHECK(encoded(r, "0.4.0") ==
        R"({"cniVersion":"0.4.0","interfaces":[{"name":"eth0"}],"ips":[{"version":"4","address":"10.0.0.5/24"}],)"
        R"("routes":[{"dst":"0.0.0.0/0"}],"dns":{}})");
  CHECK(
      encoded(r, "1.1.0") ==
      R"({"cniVersion":"1.1.0","interfaces":[{"name":"eth0"}],"ips":[{"address":"10.0.0.5/24"}],"routes":[{"dst":"0.0.0.0/0"}]})");
}

TEST_CASE("malformed results are decoding failures naming the field") {
  struct Case {
    std::string json;
    std::string version;
    std::string message;
  };
  const Case cases[] = {
      {R"([])", "1.0.0", "invalid result: expected a JSON object"},
      {R"("x")", "1.0.0", "invalid result: expected a JSON object"},
      {R"({"cniVersion":1})", "1.0.0", "invalid cniVersion: expected a string"},
      {R"({"ips":{}})", "1.0.0", "invalid ips: expected an array"},
      {R"({"ips":[5]})", "1.0.0", "invalid ips[0]: expected a JSON object"},
      {R"({"ips":[{"gateway":"10.0.0.1"}]})", "1.0.0", "invalid ips[0].address: missing"},
      {R"({"ips":[{"address":"10.0.0.5"}]})", "1.0.0",
       R"(invalid ips[0].address: "10.0.0.5" is not an address with a prefix length)"},
      {R"({"ips":[{"address":"10.0.0.5/24"},{"address":"10.0.0.6/33"}]})", "1.0.0",
       R"(invalid ips[1].address: "10.0.0.6/33" is not an address with a prefix length)"},
      {R"({"ips":[{"address":5}]})", "1.0.0", "invalid ips[0].address: expected a string"},
      {R"({"ips":[{"address":"10.0.0.5/24","gateway":"10.0.0.256"}]})", "1.0.0",
       R"(invalid ips[0].gateway: "10.0.0.256" is not an IP address)"},
      {R"({"ips":[{"address":"10.0.0.5/24","interface":"0"}]})", "1.0.0",
       R"(invalid ips[0].interface: "0" is not an integer)"},
      {R"({"ips":[{"address":"10.0.0.5/24","interface":0.5}]})", "1.0.0",
       "invalid ips[0].interface: 0.5 is not an integer"},
      {R"({"ips":[{"address":"10.0.0.5/24","interface":4294967296}]})", "1.0.0",
       "invalid ips[0].interface: 4294967296 is not an integer"},
      {R"({"interfaces":[{"name":7}]})", "0.4.0", "invalid interfaces[0].name: expected a string"},
      {R"({"interfaces":[{"name":"eth0","mtu":"big"}]})", "1.1.0",
       R"(invalid interfaces[0].mtu: "big" is not an integer)"},
      {R"({"routes":[{"gw":"10.0.0.1"}]})", "0.3.0", "invalid routes[0].dst: missing"},
      {R"({"routes":[{"dst":"0.0.0.0/0","table":true}]})", "1.1.0", "invalid routes[0].table: true is not an integer"},
      {R"({"dns":[]})", "0.4.0", "invalid dns: expected a JSON object"},
      {R"({"dns":{"nameservers":"10.0.0.10"}})", "1.0.0", "invalid dns.nameservers: expected an array of strings"},
      {R"({"dns":{"search":["a",1]}})", "1.0.0", "invalid dns.search[1]: expected a string"},
      {R"({"ip4":"10.0.0.5/24"})", "0.2.0", "invalid ip4: expected a JSON object"},
      {R"({"ip6":{"ip":"fd00::1/129"}})", "0.2.0",
       R"(invalid ip6.ip: "fd00::1/129" is not an address with a prefix length)"},
      {R"({"ip4":{"ip":"10.0.0.5/24","routes":[{"dst":"x"}]}})", "0.1.0",
       R"(invalid ip4.routes[0].dst: "x" is not an address with a prefix length)"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.json);
    Error e = thrown_error([&] { decoded(c.json, c.version); });
    CHECK(e.code() == wincni::cni::kDecodingFailure);
    CHECK(e.msg() == c.message);
  }
}

TEST_CASE("unknown keys and nulls are ignored") {
  Result r = decoded(
      R"({"cniVersion":"1.0.0","extra":{"a":1},"interfaces":null,"ips":[{"address":"10.0.0.5/24","gateway":null,"x":1}],"dns":null})",
      "1.0.0");
  CHECK(r.interfaces.empty());
  CHECK(r.ips.size() == 1);
  CHECK_FALSE(r.ips[0].gateway.has_value());
}

TEST_CASE("dns objects: case-insensitive input, Go field order, empty fields omitted") {
  Dns dns = wincni::cni::decode_dns(nlohmann::json::parse(
      R"({"Nameservers":["10.0.0.10","10.0.0.11"],"Domain":"corp","Search":["svc.cluster.local"],"Options":["ndots:5"]})"));
  CHECK(dns.nameservers == std::vector<std::string>{"10.0.0.10", "10.0.0.11"});
  CHECK(dns.domain == "corp");
  CHECK(dns.search == std::vector<std::string>{"svc.cluster.local"});
  CHECK(dns.options == std::vector<std::string>{"ndots:5"});
  CHECK(
      wincni::cni::encode_dns(dns).dump() ==
      R"({"nameservers":["10.0.0.10","10.0.0.11"],"domain":"corp","search":["svc.cluster.local"],"options":["ndots:5"]})");

  CHECK(wincni::cni::encode_dns(Dns{}).dump() == "{}");
  Dns search_only;
  search_only.search = {"a"};
  CHECK(wincni::cni::encode_dns(search_only).dump() == R"({"search":["a"]})");
  CHECK(wincni::cni::decode_dns(nlohmann::json::object()).empty());

  Error e = thrown_error([] { wincni::cni::decode_dns(nlohmann::json::parse(R"({"options":[1]})")); });
  CHECK(e.code() == wincni::cni::kDecodingFailure);
  CHECK(e.msg() == "invalid dns.options[0]: expected a string");
  e = thrown_error([] { wincni::cni::decode_dns(nlohmann::json::parse(R"("8.8.8.8")")); });
  CHECK(e.msg() == "invalid dns: expected a JSON object");
}
