// The round-robin candidate order (allocator_test.go's RangeIter cases and
// the multi-range start points).

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "range_iterator.hpp"
#include "support.hpp"

using hostlocal_test::ip;
using hostlocal_test::prefix;
using wincni::cni::IpAddress;
using wincni::hostlocal::RangeIterator;
using wincni::hostlocal::RangeSet;
using wincni::hostlocal::RangeSpec;

namespace {

using hostlocal_test::subnet;

std::vector<std::string> walk(const RangeSet& set, std::optional<IpAddress> last, size_t limit = 64) {
  RangeIterator it(set, last);
  std::vector<std::string> order;
  while (auto c = it.next()) {
    order.push_back(c->ip.str());
    if (order.size() == limit) break;
  }
  return order;
}

using Order = std::vector<std::string>;

}  // namespace

TEST_CASE("a fresh /29 offers .2 to .6: the gateway and the broadcast never") {
  const RangeSet set = RangeSet::canonicalize({subnet("192.168.1.0/29")});
  CHECK(walk(set, std::nullopt) == Order{"192.168.1.2", "192.168.1.3", "192.168.1.4", "192.168.1.5", "192.168.1.6"});
}

TEST_CASE("the walk starts after the last reserved address and offers it last") {
  const RangeSet set = RangeSet::canonicalize({subnet("192.168.1.0/29")});
  CHECK(walk(set, ip("192.168.1.6")) ==
        Order{"192.168.1.2", "192.168.1.3", "192.168.1.4", "192.168.1.5", "192.168.1.6"});
  CHECK(walk(set, ip("192.168.1.3")) ==
        Order{"192.168.1.4", "192.168.1.5", "192.168.1.6", "192.168.1.2", "192.168.1.3"});
}

TEST_CASE("a last reserved address outside the set is ignored") {
  const RangeSet set = RangeSet::canonicalize({subnet("10.0.0.0/29")});
  CHECK(walk(set, ip("10.0.0.128")).front() == "10.0.0.2");
  CHECK(walk(set, ip("2001:db8::5")).front() == "10.0.0.2");
  // The default range starts at the gateway (.1), so a last reserved .1
  // positions the walk like any other address.
  CHECK(walk(set, ip("10.0.0.1")).front() == "10.0.0.2");
}

TEST_CASE("several ranges are walked in order and wrap around") {
  const RangeSet two = RangeSet::canonicalize({subnet("10.0.0.0/30"), subnet("10.0.1.0/30")});
  CHECK(walk(two, std::nullopt) == Order{"10.0.0.2", "10.0.1.2"});
  CHECK(walk(two, ip("10.0.0.2")) == Order{"10.0.1.2", "10.0.0.2"});

  const RangeSet three = RangeSet::canonicalize({subnet("10.0.0.0/30"), subnet("10.0.1.0/30"), subnet("10.0.2.0/30")});
  CHECK(walk(three, ip("10.0.2.2")) == Order{"10.0.0.2", "10.0.1.2", "10.0.2.2"});
}

TEST_CASE("ranges that include the network and broadcast addresses offer them") {
  // allocator_test.go's multi-range allocator: starts at .0, ends at .3.
  const RangeSet set =
      RangeSet::canonicalize({RangeSpec{prefix("192.168.1.0/30"), ip("192.168.1.0"), ip("192.168.1.3"), {}},
                              RangeSpec{prefix("192.168.2.0/30"), ip("192.168.2.0"), ip("192.168.2.3"), {}}});
  CHECK(walk(set, std::nullopt) ==
        Order{"192.168.1.0", "192.168.1.2", "192.168.1.3", "192.168.2.0", "192.168.2.2", "192.168.2.3"});
  // After the last address of the first range comes the second range's start.
  CHECK(walk(set, ip("192.168.1.3")) ==
        Order{"192.168.2.0", "192.168.2.2", "192.168.2.3", "192.168.1.0", "192.168.1.2", "192.168.1.3"});
}

TEST_CASE("a range holding only its gateway offers nothing, and the walk ends") {
  const RangeSet set = RangeSet::canonicalize({RangeSpec{prefix("10.0.0.0/30"), ip("10.0.0.1"), ip("10.0.0.1"), {}}});
  CHECK(walk(set, std::nullopt).empty());
  CHECK(walk(set, ip("10.0.0.1")).empty());
  RangeIterator it(set, std::nullopt);
  CHECK_FALSE(it.next().has_value());
  CHECK_FALSE(it.next().has_value());
}

TEST_CASE("IPv6 walks step through the last group and honour a custom gateway") {
  const RangeSet set = RangeSet::canonicalize(
      {RangeSpec{prefix("2001:db8:1::/64"), ip("2001:db8:1::fffe"), ip("2001:db8:1::1:1"), ip("2001:db8:1::ffff")}});
  CHECK(walk(set, std::nullopt) == Order{"2001:db8:1::fffe", "2001:db8:1::1:0", "2001:db8:1::1:1"});
}
