// Allocation against a real store in a temporary directory: round robin,
// wrap-around, requested addresses, duplicates and exhaustion
// (allocator_test.go's cases).

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "allocator.hpp"
#include "file_names.hpp"
#include "support.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/os/private_files.hpp"

using hostlocal_test::ip;
using hostlocal_test::prefix;
using hostlocal_test::TempDir;
using hostlocal_test::write_text;
using wincni::cni::Error;
using wincni::hostlocal::Allocator;
using wincni::hostlocal::OwnerKey;
using wincni::hostlocal::RangeSet;
using wincni::hostlocal::RangeSpec;
using wincni::hostlocal::Snapshot;
using wincni::hostlocal::Store;

namespace {

RangeSet set_of(const std::vector<std::string>& subnets) {
  std::vector<RangeSpec> specs;
  for (const auto& s : subnets) specs.push_back(hostlocal_test::subnet(s));
  return RangeSet::canonicalize(specs);
}

// A network directory holding `taken` (address -> owner file content) and,
// when given, last_reserved_ip.0.
struct Fixture {
  TempDir dir;
  Store store = Store::open(hostlocal_test::path_text(dir.path()), "net");

  void take(const std::string& address, const std::string& content = "other\r\neth0") {
    write_text(std::filesystem::path(store.directory()) /
                   wincni::hostlocal::ip_file_name(ip(address), wincni::hostlocal::platform_escapes_colons()),
               content);
  }
  void last_reserved(const std::string& address) {
    write_text(std::filesystem::path(store.directory()) / "last_reserved_ip.0", address);
  }
  wincni::cni::IpConfig allocate(const RangeSet& set, const std::string& id,
                                 std::optional<std::string> requested = {}) {
    Snapshot snapshot = store.scan();
    std::optional<wincni::cni::IpAddress> wanted;
    if (requested) wanted = ip(*requested);
    return Allocator(set, 0, store, snapshot).allocate(OwnerKey(id, "eth0"), id, wanted);
  }
  Error allocate_error(const RangeSet& set, const std::string& id, std::optional<std::string> requested = {}) {
    return hostlocal_test::thrown_error([&] { allocate(set, id, requested); });
  }
};

}  // namespace

TEST_CASE("round robin from the last reserved address, as the reference") {
  struct Case {
    std::vector<std::string> subnets;
    std::vector<std::string> taken;
    std::string last;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {{"10.0.0.0/29"}, {}, "", "10.0.0.2"},  // fresh start
      {{"2001:db8:1::0/64"}, {}, "", "2001:db8:1::2"},
      {{"10.0.0.0/30"}, {}, "", "10.0.0.2"},
      {{"10.0.0.0/29"}, {"10.0.0.2"}, "", "10.0.0.3"},
      {{"10.0.0.0/29"}, {}, "10.0.0.5", "10.0.0.6"},  // after the last
      {{"10.0.0.0/29"}, {"10.0.0.4", "10.0.0.5"}, "10.0.0.3", "10.0.0.6"},
      {{"10.0.0.0/29"}, {"10.0.0.6"}, "10.0.0.5", "10.0.0.2"},    // wraps around
      {{"10.0.0.0/29"}, {"10.0.0.2"}, "10.0.0.128", "10.0.0.3"},  // last out of range
      {{"10.0.0.0/29"},
       {"10.0.0.2", "10.0.0.4", "10.0.0.5", "10.0.0.6"},
       "10.0.0.3",
       "10.0.0.3"},                                                                 // only the last left
      {{"10.0.0.0/30", "10.0.1.0/30"}, {}, "", "10.0.0.2"},                         // several subnets
      {{"10.0.0.0/30", "10.0.1.0/30"}, {}, "10.0.0.2", "10.0.1.2"},                 // next subnet
      {{"10.0.0.0/30", "10.0.1.0/30", "10.0.2.0/30"}, {}, "10.0.2.2", "10.0.0.2"},  // back to the first
  };
  for (const auto& c : cases) {
    CAPTURE(c.expected);
    Fixture f;
    for (const auto& t : c.taken) f.take(t);
    if (!c.last.empty()) f.last_reserved(c.last);
    const auto got = f.allocate(set_of(c.subnets), "ID");
    CHECK(got.address.address().str() == c.expected);
  }
}

TEST_CASE("a /29 hands out .2 to .6 and then reports exhaustion, never the broadcast") {
  Fixture f;
  const RangeSet set = set_of({"192.168.1.0/29"});
  for (int i = 2; i < 7; ++i) {
    const auto got = f.allocate(set, "ID" + std::to_string(i));
    CHECK(got.address.str() == "192.168.1." + std::to_string(i) + "/29");
    CHECK(got.gateway == ip("192.168.1.1"));
  }
  const Error e = f.allocate_error(set, "ID8");
  CHECK(e.code() == wincni::cni::kNoAddressAvailable);
  CHECK(e.msg() == "no IP addresses available in range set: 192.168.1.1-192.168.1.6");
}

TEST_CASE("exhaustion is reported for every shape of full set") {
  struct Case {
    std::vector<std::string> subnets;
    std::vector<std::string> taken;
  };
  const std::vector<Case> cases = {
      {{"10.0.0.0/30"}, {"10.0.0.2"}},
      {{"10.0.0.0/29"}, {"10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6"}},
      {{"10.0.0.0/30", "10.0.1.0/30"}, {"10.0.0.2", "10.0.1.2"}},
  };
  for (const auto& c : cases) {
    Fixture f;
    for (const auto& t : c.taken) f.take(t);
    const Error e = f.allocate_error(set_of(c.subnets), "ID");
    CHECK(std::string(e.msg()).rfind("no IP addresses available in range set", 0) == 0);
  }
}

TEST_CASE("the next allocation after a release moves on: round robin, not first fit") {
  Fixture f;
  const RangeSet set = set_of({"192.168.1.0/29"});
  CHECK(f.allocate(set, "ID").address.str() == "192.168.1.2/29");
  f.store.release(f.store.scan().reservations.at(ip("192.168.1.2")));
  CHECK(f.allocate(set, "ID").address.str() == "192.168.1.3/29");
}

TEST_CASE("a requested address is honoured once, and must be in range and not the gateway") {
  Fixture f;
  const RangeSet set = set_of({"192.168.1.0/29"});
  CHECK(f.allocate(set, "ID", "192.168.1.5").address.address() == ip("192.168.1.5"));
  // The round-robin position follows requested addresses too.
  CHECK(wincni::os::private_files::read_file(f.store.directory() + "/last_reserved_ip.0") == "192.168.1.5");

  Error taken = f.allocate_error(set, "ID", "192.168.1.5");
  CHECK(taken.code() == wincni::cni::kNoAddressAvailable);
  CHECK(taken.msg() == "requested IP address 192.168.1.5 is not available in range set 192.168.1.1-192.168.1.6");

  Error gateway = f.allocate_error(set, "ID2", "192.168.1.1");
  CHECK(gateway.code() == wincni::cni::kInvalidNetworkConfig);
  CHECK(gateway.msg() == "requested ip 192.168.1.1 is subnet's gateway");

  const RangeSet narrow =
      RangeSet::canonicalize({RangeSpec{prefix("192.168.1.0/29"), ip("192.168.1.3"), ip("192.168.1.4"), {}}});
  CHECK(f.allocate_error(narrow, "ID3", "192.168.1.6").msg() == "192.168.1.6 not in range set 192.168.1.3-192.168.1.4");
  CHECK(f.allocate_error(narrow, "ID3", "192.168.1.2").msg() == "192.168.1.2 not in range set 192.168.1.3-192.168.1.4");
}

TEST_CASE("a second allocation for the same container and interface is refused, another interface is not") {
  Fixture f;
  const RangeSet set = set_of({"10.1.2.0/24"});
  CHECK(f.allocate(set, "dummy").address.address() == ip("10.1.2.2"));
  const Error dup = f.allocate_error(set, "dummy");
  CHECK(dup.code() == wincni::cni::kDuplicateAllocation);
  CHECK(dup.msg() == "10.1.2.2 has been allocated to dummy, duplicate allocation is not allowed");
  CHECK(f.allocate(set, "dummy1").address.address() == ip("10.1.2.3"));

  Snapshot snapshot = f.store.scan();
  CHECK(Allocator(set, 0, f.store, snapshot)
            .allocate(OwnerKey("dummy", "eth1"), "dummy", std::nullopt)
            .address.address() == ip("10.1.2.4"));
}

TEST_CASE("a legacy bare-ID file counts as the container's allocation") {
  Fixture f;
  f.take("10.1.2.7", "dummy");
  const Error dup = f.allocate_error(set_of({"10.1.2.0/24"}), "dummy");
  CHECK(dup.msg() == "10.1.2.7 has been allocated to dummy, duplicate allocation is not allowed");
  // An allocation in another set does not count against this one.
  CHECK(f.allocate(set_of({"10.1.3.0/24"}), "dummy").address.address() == ip("10.1.3.2"));
}

TEST_CASE("IPv6 duplicates are caught whatever the platform's file-name escaping") {
  Fixture f;
  const RangeSet set = set_of({"2001:db8:1::/64"});
  CHECK(f.allocate(set, "dummy").address.address() == ip("2001:db8:1::2"));
  CHECK(f.allocate_error(set, "dummy").code() == wincni::cni::kDuplicateAllocation);
}

TEST_CASE("an address taken by something that is not a file is skipped") {
  Fixture f;
  std::filesystem::create_directory(std::filesystem::path(f.store.directory()) / "10.0.0.2");
  CHECK(f.allocate(set_of({"10.0.0.0/29"}), "ID").address.address() == ip("10.0.0.3"));
}
