#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "wincni/cni/error.hpp"
#include "ip_literals.hpp"
#include "wincni/cni/ip.hpp"

using wincni::cni::IpAddress;
using wincni::cni::IpFamily;
using wincni::cni::IpPrefix;
using wincni::test::ip;
using wincni::test::prefix;

TEST_CASE("IPv4 addresses parse and format as dotted quads") {
  struct Vector {
    const char* text;
    std::vector<uint8_t> bytes;
  };
  const std::vector<Vector> vectors = {
      {"0.0.0.0", {0, 0, 0, 0}},     {"255.255.255.255", {255, 255, 255, 255}},
      {"10.0.0.1", {10, 0, 0, 1}},   {"192.168.100.200", {192, 168, 100, 200}},
      {"1.20.0.99", {1, 20, 0, 99}},
  };
  for (const auto& v : vectors) {
    CAPTURE(v.text);
    IpAddress a = ip(v.text);
    CHECK(a.family() == IpFamily::V4);
    CHECK(a.is_v4());
    CHECK(a.bits() == 32);
    CHECK(std::vector<uint8_t>(a.bytes().begin(), a.bytes().begin() + 4) == v.bytes);
    CHECK(a.str() == v.text);
  }
  CHECK(IpAddress::v4(0x0a000001).str() == "10.0.0.1");
  CHECK(IpAddress::v4(0xffffffff).str() == "255.255.255.255");
  CHECK(IpAddress().str() == "0.0.0.0");
  CHECK(IpAddress().is_zero());
  CHECK_FALSE(ip("0.0.0.1").is_zero());
}

TEST_CASE("IPv6 addresses format canonically (RFC 5952)") {
  struct Vector {
    const char* text;
    const char* canonical;
  };
  const std::vector<Vector> vectors = {
      {"::", "::"},
      {"::1", "::1"},
      {"1::", "1::"},
      {"0:0:0:0:0:0:0:1", "::1"},
      {"0:0:0:0:0:0:0:0", "::"},
      {"2001:DB8::1", "2001:db8::1"},
      {"2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"},
      {"2001:db8::1:0:0:1", "2001:db8::1:0:0:1"},  // first of two equal runs
      {"2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"},
      {"2001:0:0:1:0:0:0:1", "2001:0:0:1::1"},           // longest run wins
      {"2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"},  // a single zero group stays
      {"fe80::1:2:3:4", "fe80::1:2:3:4"},
      {"1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"},
      {"1:0:0:0:0:0:0:0", "1::"},
      {"fd00::100", "fd00::100"},
      {"FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"},
      {"::1.2.3.4", "::102:304"},
      {"1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"},
      {"::ffff:1.2.3.4", "::ffff:1.2.3.4"},
      {"::ffff:0102:0304", "::ffff:1.2.3.4"},
  };
  for (const auto& v : vectors) {
    CAPTURE(v.text);
    IpAddress a = ip(v.text);
    CHECK(a.family() == IpFamily::V6);
    CHECK(a.bits() == 128);
    CHECK(a.str() == v.canonical);
    CHECK(ip(a.str()) == a);
  }
  IpAddress loopback = ip("::1");
  CHECK(loopback.bytes()[15] == 1);
  for (int i = 0; i < 15; ++i) CHECK(loopback.bytes()[static_cast<size_t>(i)] == 0);
  CHECK(ip("::").is_zero());
}

TEST_CASE("IPv4-mapped IPv6 stays IPv6") {
  IpAddress mapped = ip("::ffff:10.0.0.1");
  CHECK(mapped.family() == IpFamily::V6);
  CHECK(mapped != ip("10.0.0.1"));
  CHECK_FALSE(prefix("10.0.0.0/8").contains(mapped));
}

TEST_CASE("malformed addresses are rejected") {
  const std::vector<std::string> invalid = {
      "",
      " 1.2.3.4",
      "1.2.3.4 ",
      "1.2.3",
      "1.2.3.4.5",
      "256.1.1.1",
      "1.2.3.256",
      "1.2.3.-1",
      "+1.2.3.4",
      "010.1.1.1",
      "1.2.3.00",
      "1.2.3.0001",
      "1..2.3",
      "1.2.3.4.",
      ".1.2.3",
      "a.b.c.d",
      "0x1.2.3.4",
      "1.2.3.4/24",
      "fe80::1%eth0",
      "[::1]",
      ":",
      ":::",
      ":1",
      "1:",
      "1::2::3",
      "1:::2",
      "12345::",
      "g::1",
      "1:2:3:4:5:6:7",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4::5:6:7:8",  // "::" must replace at least one group
      "1:2:3:4:5:6:7:1.2.3.4",
      "::1.2.3",
      "::1.2.3.4:5",
      "::01.2.3.4",
      "::1 ",
      std::string("1.2.3.4\0", 8),
  };
  for (const auto& text : invalid) {
    CAPTURE(text);
    CHECK_FALSE(IpAddress::parse(text).has_value());
  }
}

TEST_CASE("next, previous and plus wrap within the family") {
  CHECK(ip("10.0.0.1").next() == ip("10.0.0.2"));
  CHECK(ip("10.0.0.255").next() == ip("10.0.1.0"));
  CHECK(ip("255.255.255.255").next() == ip("0.0.0.0"));
  CHECK(ip("0.0.0.0").previous() == ip("255.255.255.255"));
  CHECK(ip("10.0.1.0").previous() == ip("10.0.0.255"));
  CHECK(ip("10.0.0.0").plus(0) == ip("10.0.0.0"));
  CHECK(ip("10.0.0.0").plus(256) == ip("10.0.1.0"));
  CHECK(ip("10.0.0.0").plus(0x01000000) == ip("11.0.0.0"));
  CHECK(ip("255.255.255.250").plus(10) == ip("0.0.0.4"));
  CHECK(ip("0.0.0.1").plus(0x100000000ull) == ip("0.0.0.1"));  // 2^32 wraps to itself

  CHECK(ip("::").previous() == ip("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"));
  CHECK(ip("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").next() == ip("::"));
  CHECK(ip("fd00::ffff").next() == ip("fd00::1:0"));
  CHECK(ip("fd00::1:0").previous() == ip("fd00::ffff"));
  CHECK(ip("fd00::").plus(0xffffffffffffffffull) == ip("fd00::ffff:ffff:ffff:ffff"));
  CHECK(ip("fd00::1").plus(0xffffffffffffffffull) == ip("fd00:0:0:1::"));  // carry past 64 bits
  CHECK(ip("::1").next().family() == IpFamily::V6);
}

TEST_CASE("addresses order numerically within a family") {
  CHECK(ip("10.0.0.2") < ip("10.0.0.10"));
  CHECK(ip("9.255.255.255") < ip("10.0.0.0"));
  CHECK(ip("fd00::2") < ip("fd00::10"));
  CHECK(ip("1.2.3.4") == ip("1.2.3.4"));
}

TEST_CASE("prefixes parse strictly") {
  IpPrefix p = prefix("10.1.2.5/24");
  CHECK(p.address() == ip("10.1.2.5"));
  CHECK(p.length() == 24);
  CHECK(p.family() == IpFamily::V4);
  CHECK(p.str() == "10.1.2.5/24");
  CHECK(prefix("0.0.0.0/0").length() == 0);
  CHECK(prefix("1.2.3.4/32").length() == 32);
  CHECK(prefix("fd00::100/120").str() == "fd00::100/120");
  CHECK(prefix("2001:DB8:0:0::1/128").str() == "2001:db8::1/128");
  CHECK(prefix("::/0").length() == 0);
  CHECK(prefix("10.0.0.0/08").length() == 8);  // Go's ParseCIDR accepts leading zeros

  const std::vector<std::string> invalid = {
      "",           "1.2.3.4",    "1.2.3.4/",   "1.2.3.4/33",      "1.2.3.4/-1",  "1.2.3.4/+8",
      "1.2.3.4/ 8", "1.2.3.4/8 ", " 1.2.3.4/8", "1.2.3.4/8/8",     "1.2.3.4/0x8", "1.2.3.4/99999999999999999999",
      "/24",        "1.2.3/24",   "::1/129",    "fe80::1%eth0/64", "256.0.0.0/8",
  };
  for (const auto& text : invalid) {
    CAPTURE(text);
    CHECK_FALSE(IpPrefix::parse(text).has_value());
  }
}

TEST_CASE("a prefix built from a bad length is a config error") {
  CHECK_THROWS_AS(IpPrefix(ip("10.0.0.0"), 33), wincni::cni::Error);
  CHECK_THROWS_AS(IpPrefix(ip("10.0.0.0"), -1), wincni::cni::Error);
  CHECK_THROWS_AS(IpPrefix(ip("fd00::"), 129), wincni::cni::Error);
  try {
    IpPrefix(ip("10.0.0.0"), 40);
  } catch (const wincni::cni::Error& e) {
    CHECK(e.code() == wincni::cni::kInvalidNetworkConfig);
  }
  CHECK(IpPrefix(ip("fd00::"), 128).length() == 128);
}

TEST_CASE("network, first, last and mask") {
  IpPrefix p = prefix("10.1.2.5/24");
  CHECK(p.network() == prefix("10.1.2.0/24"));
  CHECK_FALSE(p.is_network());
  CHECK(p.network().is_network());
  CHECK(p.first() == ip("10.1.2.0"));
  CHECK(p.last() == ip("10.1.2.255"));
  CHECK(p.mask() == ip("255.255.255.0"));

  IpPrefix odd = prefix("172.16.77.9/19");
  CHECK(odd.first() == ip("172.16.64.0"));
  CHECK(odd.last() == ip("172.16.95.255"));
  CHECK(odd.mask() == ip("255.255.224.0"));

  CHECK(prefix("1.2.3.4/0").first() == ip("0.0.0.0"));
  CHECK(prefix("1.2.3.4/0").last() == ip("255.255.255.255"));
  CHECK(prefix("1.2.3.4/0").mask() == ip("0.0.0.0"));
  CHECK(prefix("1.2.3.4/32").first() == ip("1.2.3.4"));
  CHECK(prefix("1.2.3.4/32").last() == ip("1.2.3.4"));
  CHECK(prefix("1.2.3.4/32").mask() == ip("255.255.255.255"));
  CHECK(prefix("1.2.3.4/32").is_network());

  IpPrefix v6 = prefix("fd00::1ab/120");
  CHECK(v6.first() == ip("fd00::100"));
  CHECK(v6.last() == ip("fd00::1ff"));
  CHECK(v6.mask() == ip("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00"));
  CHECK(v6.network().str() == "fd00::100/120");
  CHECK(prefix("2001:db8:abcd:12::5/64").last() == ip("2001:db8:abcd:12:ffff:ffff:ffff:ffff"));
  CHECK(prefix("2001:db8::/33").mask() == ip("ffff:ffff:8000::"));
  CHECK(prefix("::/0").mask() == ip("::"));
  CHECK(prefix("::/0").last() == ip("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"));
}

TEST_CASE("contains is family-aware") {
  IpPrefix v6 = prefix("fd00::100/120");
  CHECK(v6.contains(ip("fd00::1fe")));
  CHECK(v6.contains(ip("fd00::100")));
  CHECK(v6.contains(ip("fd00::1ff")));
  CHECK_FALSE(v6.contains(ip("fd00::200")));
  CHECK_FALSE(v6.contains(ip("fd00::ff")));

  IpPrefix v4 = prefix("10.1.2.5/24");
  CHECK(v4.contains(ip("10.1.2.0")));
  CHECK(v4.contains(ip("10.1.2.255")));
  CHECK_FALSE(v4.contains(ip("10.1.3.0")));
  CHECK_FALSE(v4.contains(ip("::a01:200")));  // same bits, other family

  CHECK(prefix("0.0.0.0/0").contains(ip("255.255.255.255")));
  CHECK_FALSE(prefix("0.0.0.0/0").contains(ip("::")));
  CHECK(prefix("::/0").contains(ip("fd00::1")));
  CHECK_FALSE(prefix("::/0").contains(ip("1.2.3.4")));
}

TEST_CASE("overlaps: nested, identical, adjacent, disjoint") {
  CHECK(prefix("10.0.0.0/8").overlaps(prefix("10.1.0.0/16")));
  CHECK(prefix("10.1.0.0/16").overlaps(prefix("10.0.0.0/8")));
  CHECK(prefix("10.1.0.0/16").overlaps(prefix("10.1.0.0/16")));
  CHECK(prefix("10.1.2.5/24").overlaps(prefix("10.1.2.200/32")));
  CHECK_FALSE(prefix("10.1.0.0/16").overlaps(prefix("10.2.0.0/16")));
  CHECK_FALSE(prefix("10.0.0.0/25").overlaps(prefix("10.0.0.128/25")));
  CHECK(prefix("0.0.0.0/0").overlaps(prefix("192.168.0.0/16")));
  CHECK(prefix("fd00::/64").overlaps(prefix("fd00::100/120")));
  CHECK_FALSE(prefix("fd00::/64").overlaps(prefix("fd00:0:0:1::/64")));
  CHECK_FALSE(prefix("0.0.0.0/0").overlaps(prefix("::/0")));
}
