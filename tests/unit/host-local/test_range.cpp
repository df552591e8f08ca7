// Range and range-set canonicalisation: the reference's defaults, checks and
// messages (range_test.go, range_set_test.go).

#include <doctest/doctest.h>

#include "range_set.hpp"
#include "support.hpp"
#include "wincni/cni/error.hpp"

using hostlocal_test::ip;
using hostlocal_test::prefix;
using wincni::cni::Error;
using wincni::hostlocal::Range;
using wincni::hostlocal::RangeSet;
using wincni::hostlocal::RangeSpec;

namespace {

using hostlocal_test::subnet;
using hostlocal_test::thrown_error;

std::string canonicalize_error(const RangeSpec& spec) {
  const Error e = thrown_error([&] { Range::canonicalize(spec); });
  CHECK(e.code() == wincni::cni::kInvalidNetworkConfig);
  return e.msg();
}

std::string set_error(const std::vector<RangeSpec>& specs) {
  const Error e = thrown_error([&] { RangeSet::canonicalize(specs); });
  CHECK(e.code() == wincni::cni::kInvalidNetworkConfig);
  return e.msg();
}

}  // namespace

TEST_CASE("IPv4 ranges default to network+1 .. broadcast-1 with the gateway at network+1") {
  const Range r = Range::canonicalize(subnet("192.0.2.0/24"));
  CHECK(r.subnet() == prefix("192.0.2.0/24"));
  CHECK(r.start() == ip("192.0.2.1"));
  CHECK(r.end() == ip("192.0.2.254"));
  CHECK(r.gateway() == ip("192.0.2.1"));

  const Range small = Range::canonicalize(subnet("192.0.2.0/25"));
  CHECK(small.start() == ip("192.0.2.1"));
  CHECK(small.end() == ip("192.0.2.126"));
  CHECK(small.gateway() == ip("192.0.2.1"));
}

TEST_CASE("IPv6 ranges end at the last address: there is no broadcast") {
  const Range r = Range::canonicalize(subnet("2001:DB8:1::/64"));
  CHECK(r.start() == ip("2001:db8:1::1"));
  CHECK(r.end() == ip("2001:db8:1::ffff:ffff:ffff:ffff"));
  CHECK(r.gateway() == ip("2001:db8:1::1"));
  CHECK(r.str() == "2001:db8:1::1-2001:db8:1:0:ffff:ffff:ffff:ffff");  // one zero group stays
}

TEST_CASE("a subnet with host bits is refused with the network it should have been") {
  CHECK(canonicalize_error(subnet("192.0.2.12/24")) ==
        "Network has host bits set. For a subnet mask of length 24 the network address is 192.0.2.0");
  CHECK(canonicalize_error(subnet("2001:DB8:1::24:19ff:fee1:c44a/64")) ==
        "Network has host bits set. For a subnet mask of length 64 the network address is 2001:db8:1::");
  CHECK(canonicalize_error(subnet("2001:DB8:24:19ff::/63")) ==
        "Network has host bits set. For a subnet mask of length 63 the network address is 2001:db8:24:19fe::");
  CHECK(canonicalize_error(subnet("192.168.127.0/23")) ==
        "Network has host bits set. For a subnet mask of length 23 the network address is 192.168.126.0");
}

TEST_CASE("subnets without two host addresses are too small") {
  CHECK(canonicalize_error(subnet("192.0.2.0/31")) == "Network 192.0.2.0/31 too small to allocate from");
  CHECK(canonicalize_error(subnet("192.0.2.7/32")) == "Network 192.0.2.7/32 too small to allocate from");
  CHECK(canonicalize_error(subnet("2001:db8::/127")) == "Network 2001:db8::/127 too small to allocate from");
  CHECK_NOTHROW(Range::canonicalize(subnet("192.0.2.0/30")));
}

TEST_CASE("start and end must lie in the network, start before end") {
  RangeSpec spec = subnet("192.0.2.0/24");
  spec.range_start = ip("192.0.3.0");
  CHECK(canonicalize_error(spec) == "RangeStart 192.0.3.0 not in network 192.0.2.0/24");

  spec = subnet("192.0.2.0/24");
  spec.range_end = ip("192.0.4.0");
  CHECK(canonicalize_error(spec) == "RangeEnd 192.0.4.0 not in network 192.0.2.0/24");

  // A start after the end is reported as a bad start, as the reference does.
  spec = subnet("192.0.2.0/24");
  spec.range_start = ip("192.0.2.50");
  spec.range_end = ip("192.0.2.40");
  CHECK(canonicalize_error(spec) == "RangeStart 192.0.2.50 not in network 192.0.2.0/24");

  spec = subnet("192.0.2.0/24");
  spec.range_start = ip("2001:db8::1");
  CHECK(canonicalize_error(spec) == "RangeStart 2001:db8::1 not in network 192.0.2.0/24");

  CHECK(canonicalize_error(RangeSpec{}) == "IP <nil> not v4 nor v6");
}

TEST_CASE("explicit fields are kept; the gateway need not be inside the range") {
  RangeSpec spec{prefix("192.0.2.0/24"), ip("192.0.2.40"), ip("192.0.2.50"), ip("192.0.2.254")};
  const Range r = Range::canonicalize(spec);
  CHECK(r.start() == ip("192.0.2.40"));
  CHECK(r.end() == ip("192.0.2.50"));
  CHECK(r.gateway() == ip("192.0.2.254"));

  CHECK_FALSE(r.contains(ip("192.0.3.0")));
  CHECK_FALSE(r.contains(ip("192.0.2.39")));
  CHECK(r.contains(ip("192.0.2.40")));
  CHECK(r.contains(ip("192.0.2.50")));
  CHECK_FALSE(r.contains(ip("192.0.2.51")));
  CHECK(r.contains(ip("::ffff:192.0.2.45")));  // Go reads mapped addresses as IPv4
  CHECK_FALSE(r.contains(ip("2001:db8::40")));
}

TEST_CASE("IPv6 containment honours start and end") {
  const Range r =
      Range::canonicalize(RangeSpec{prefix("2001:DB8:1::/64"), ip("2001:db8:1::40"), ip("2001:db8:1::50"), {}});
  CHECK_FALSE(r.contains(ip("2001:db8:2::")));
  CHECK_FALSE(r.contains(ip("2001:db8:1::39")));
  CHECK(r.contains(ip("2001:db8:1::40")));
  CHECK(r.contains(ip("2001:db8:1::50")));
  CHECK_FALSE(r.contains(ip("2001:db8:1::51")));
}

TEST_CASE("range overlap is symmetric and per family") {
  struct Case {
    RangeSpec a, b;
    bool overlap;
  };
  RangeSpec low = subnet("10.0.0.0/24");
  low.range_end = ip("10.0.0.127");
  RangeSpec high = subnet("10.0.0.0/24");
  high.range_start = ip("10.0.0.128");
  RangeSpec touching = subnet("10.0.0.0/24");
  touching.range_start = ip("10.0.0.127");
  const std::vector<Case> cases = {
      {subnet("10.0.0.0/24"), subnet("10.0.1.0/24"), false},
      {subnet("0.0.0.0/24"), subnet("::/24"), false},
      {subnet("10.0.0.0/24"), subnet("10.0.0.0/24"), true},
      {subnet("10.0.0.0/20"), subnet("10.0.1.0/24"), true},
      {low, high, false},
      {low, touching, true},
  };
  for (const auto& c : cases) {
    const Range a = Range::canonicalize(c.a), b = Range::canonicalize(c.b);
    CAPTURE(a.str());
    CAPTURE(b.str());
    CHECK(a.overlaps(b) == c.overlap);
    CHECK(b.overlaps(a) == c.overlap);
  }
}

TEST_CASE("range sets: membership, lookup and their own errors") {
  const RangeSet set = RangeSet::canonicalize({subnet("192.168.0.0/24"), subnet("172.16.1.0/24")});
  CHECK(set.contains(ip("192.168.0.55")));
  REQUIRE(set.range_for(ip("192.168.0.55")) != nullptr);
  CHECK(set.range_for(ip("192.168.0.55")) == &set.ranges()[0]);
  CHECK(set.range_for(ip("172.16.1.9")) == &set.ranges()[1]);
  CHECK(set.range_for(ip("192.168.99.99")) == nullptr);
  CHECK(set.str() == "192.168.0.1-192.168.0.254,172.16.1.1-172.16.1.254");

  CHECK(set_error({}) == "empty range set");
  CHECK(set_error({subnet("192.168.0.0/20"), subnet("192.168.2.0/24")}) ==
        "subnets 192.168.0.1-192.168.15.254 and 192.168.2.1-192.168.2.254 overlap");
  CHECK(set_error({subnet("10.0.0.0/24"), subnet("2001:db8::/64")}) == "mixed address families");
  // A bad range is reported before the family check of that range.
  CHECK(set_error({subnet("10.0.0.0/24"), subnet("2001:db8::1/64")}) ==
        "Network has host bits set. For a subnet mask of length 64 the network address is 2001:db8::");

  const RangeSet a = RangeSet::canonicalize({subnet("192.168.0.0/20")});
  const RangeSet b = RangeSet::canonicalize({subnet("10.0.0.0/24"), subnet("192.168.2.0/24")});
  CHECK(a.overlaps(b));
  CHECK(b.overlaps(a));
}
