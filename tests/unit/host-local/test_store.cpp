// The on-disk format shared with the reference: file names and escaping,
// reservation contents, legacy files, staging, permissions, and the network
// name as a path.

#include <doctest/doctest.h>

#include <filesystem>

#include "file_names.hpp"
#include "go_strings.hpp"
#include "support.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/hostlocal/owner.hpp"
#include "wincni/hostlocal/store.hpp"

using hostlocal_test::ip;
using hostlocal_test::read_text;
using hostlocal_test::TempDir;
using hostlocal_test::write_text;
using wincni::cni::Error;
using namespace wincni::hostlocal;

namespace fs = std::filesystem;

TEST_CASE("file names are the canonical address; Windows escapes ':' as '_'") {
  CHECK(ip_file_name(ip("10.1.2.3"), false) == "10.1.2.3");
  CHECK(ip_file_name(ip("2001:DB8:1::2"), false) == "2001:db8:1::2");
  CHECK(ip_file_name(ip("2001:db8:1::2"), true) == "2001_db8_1__2");
  CHECK(ip_file_name(ip("10.1.2.3"), true) == "10.1.2.3");

  CHECK(ip_from_file_name("10.1.2.3", false) == ip("10.1.2.3"));
  CHECK(ip_from_file_name("2001_db8_1__2", true) == ip("2001:db8:1::2"));
  // The reference's Windows duplicate check parses escaped names as they are
  // and never matches; ours does.
  CHECK_FALSE(ip_from_file_name("2001_db8_1__2", false).has_value());
  for (const char* other :
       {"lock", "last_reserved_ip.0", ".wincni-reserving", "010.1.2.3", "2001:DB8::1", "10.1.2.3 "}) {
    CAPTURE(other);
    CHECK_FALSE(ip_from_file_name(other, false).has_value());
  }
  CHECK(last_reserved_file_name("1") == "last_reserved_ip.1");
}

TEST_CASE("reservation contents: trimmed ID, CRLF, interface; legacy bare IDs") {
  const OwnerKey key("   dummy\n ", "eth0");
  CHECK(key.content() == "dummy\r\neth0");
  CHECK(key.container_id() == "dummy");
  CHECK(key.ownership("dummy\r\neth0") == Ownership::kExact);
  CHECK(key.ownership("  dummy\r\neth0\n") == Ownership::kExact);
  CHECK(key.ownership("dummy") == Ownership::kLegacy);
  CHECK(key.ownership("dummy\n") == Ownership::kLegacy);
  CHECK(key.ownership("dummy\r\neth1") == Ownership::kNone);
  CHECK(key.ownership("dummy2") == Ownership::kNone);
  CHECK(key.ownership("") == Ownership::kNone);
  CHECK(is_orphan(""));
  CHECK(is_orphan(" \r\n"));
  CHECK_FALSE(is_orphan("x"));
  CHECK(trim_space("\t a b \v") == "a b");
  CHECK(split_fields("  search a.b  c.d\t e ") == std::vector<std::string>{"search", "a.b", "c.d", "e"});
}

TEST_CASE("network names that would leave dataDir are refused with code 7") {
  for (const char* bad : {"", ".", "..", "a/b", "../x", "a\\b", "c:", "x\\..\\y", "NUL", "con", "com1.txt", "LPT9"}) {
    CAPTURE(bad);
    const Error e = hostlocal_test::thrown_error([&] { check_network_name(bad); });
    CHECK(e.code() == wincni::cni::kInvalidNetworkConfig);
    CHECK(std::string(e.msg()).find("invalid network name") == 0);
  }
  for (const char* good : {"mynet", "cbr0", "a.b", "a..b", "net-1_2", "console", "com10"}) {
    CAPTURE(good);
    CHECK_NOTHROW(check_network_name(good));
  }
  TempDir dir;
  CHECK_THROWS_AS(Store::open(hostlocal_test::path_text(dir.path()), ".."), Error);
  CHECK_FALSE(fs::exists(dir.path() / "lock"));
}

TEST_CASE("a reservation appears complete, records the round-robin position, and is exclusive") {
  TempDir dir;
  Store store = Store::open(hostlocal_test::path_text(dir.path()) + "/nested/data", "net");
  CHECK(fs::is_directory(dir.path() / "nested" / "data" / "net"));
  const auto guard = store.lock();
  CHECK(fs::exists(dir.path() / "nested" / "data" / "net" / "lock"));

  const OwnerKey owner("abc", "eth0");
  CHECK(store.reserve(ip("10.0.0.2"), owner, "0"));
  const fs::path net = dir.path() / "nested" / "data" / "net";
  CHECK(read_text(net / "10.0.0.2") == "abc\r\neth0");
  CHECK(read_text(net / "last_reserved_ip.0") == "10.0.0.2");
  CHECK_FALSE(fs::exists(net / std::string(kStagingFileName)));
  CHECK(store.last_reserved("0") == ip("10.0.0.2"));
  CHECK_FALSE(store.last_reserved("1").has_value());

  CHECK_FALSE(store.reserve(ip("10.0.0.2"), OwnerKey("other", "eth0"), "0"));
  CHECK(read_text(net / "10.0.0.2") == "abc\r\neth0");
  CHECK(read_text(net / "last_reserved_ip.0") == "10.0.0.2");
  CHECK_FALSE(fs::exists(net / std::string(kStagingFileName)));

  CHECK(store.reserve(ip("2001:db8::5"), owner, "1"));
  CHECK(fs::exists(net / ip_file_name(ip("2001:db8::5"), platform_escapes_colons())));
  CHECK(read_text(net / "last_reserved_ip.1") == "2001:db8::5");
}

TEST_CASE("the round-robin position is rewritten whole when it gets shorter") {
  TempDir dir;
  Store store = Store::open(hostlocal_test::path_text(dir.path()), "net");
  const auto guard = store.lock();
  CHECK(store.reserve(ip("10.0.0.100"), OwnerKey("a", "eth0"), "0"));
  CHECK(store.reserve(ip("10.0.0.9"), OwnerKey("b", "eth0"), "0"));
  CHECK(read_text(dir.path() / "net" / "last_reserved_ip.0") == "10.0.0.9");
  CHECK(store.last_reserved("0") == ip("10.0.0.9"));
}

TEST_CASE("a torn last_reserved_ip only restarts the walk") {
  TempDir dir;
  Store store = Store::open(hostlocal_test::path_text(dir.path()), "net");
  write_text(dir.path() / "net" / "last_reserved_ip.0", "10.0.0.");
  CHECK_FALSE(store.last_reserved("0").has_value());
  write_text(dir.path() / "net" / "last_reserved_ip.0", "10.0.0.9\n");  // the reference does not trim either
  CHECK_FALSE(store.last_reserved("0").has_value());
}

TEST_CASE("a scan sees reservations, their contents, blockers and stale staging files") {
  TempDir dir;
  Store store = Store::open(hostlocal_test::path_text(dir.path()), "net");
  const fs::path net = dir.path() / "net";
  write_text(net / "10.0.0.2", "a\r\neth0");
  write_text(net / "10.0.0.3", "b");
  write_text(net / "10.0.0.4", "");
  fs::create_directory(net / "10.0.0.5");
  write_text(net / "last_reserved_ip.0", "10.0.0.4");
  write_text(net / std::string(kStagingFileName), "crashed\r\neth0");
  write_text(net / "unrelated", "a\r\neth0");
  const auto guard = store.lock();
  const Snapshot s = store.scan();
  CHECK(s.reservations.size() == 4);
  CHECK(s.reservations.at(ip("10.0.0.2")).content == "a\r\neth0");
  CHECK(s.reservations.at(ip("10.0.0.3")).content == "b");
  CHECK(s.reservations.at(ip("10.0.0.4")).content == "");
  CHECK_FALSE(s.reservations.at(ip("10.0.0.5")).content.has_value());
  CHECK(s.taken(ip("10.0.0.5")));
  CHECK_FALSE(s.taken(ip("10.0.0.6")));
  CHECK(s.stale_files == std::vector<std::string>{std::string(kStagingFileName)});
  CHECK(s.held_by(OwnerKey("a", "eth0")) == std::vector<wincni::cni::IpAddress>{ip("10.0.0.2")});
  CHECK(s.held_by(OwnerKey("b", "eth7")) == std::vector<wincni::cni::IpAddress>{ip("10.0.0.3")});
  CHECK(s.held_by(OwnerKey("c", "eth0")).empty());
}

TEST_CASE("a missing network directory is not created by open_existing") {
  TempDir dir;
  CHECK_FALSE(Store::open_existing(hostlocal_test::path_text(dir.path()), "net").has_value());
  CHECK_FALSE(fs::exists(dir.path() / "net"));
  Store::open(hostlocal_test::path_text(dir.path()), "net");
  CHECK(Store::open_existing(hostlocal_test::path_text(dir.path()), "net").has_value());
}

#ifndef _WIN32
TEST_CASE("what host-local creates is private: directories 0700, files 0600") {
  TempDir dir;
  Store store = Store::open(hostlocal_test::path_text(dir.path()) + "/data", "net");
  const auto guard = store.lock();
  CHECK(store.reserve(ip("10.0.0.2"), OwnerKey("abc", "eth0"), "0"));
  const auto perms = [](const fs::path& p) { return fs::status(p).permissions() & fs::perms::all; };
  CHECK(perms(dir.path() / "data") == fs::perms::owner_all);
  CHECK(perms(dir.path() / "data" / "net") == fs::perms::owner_all);
  const auto file = fs::perms::owner_read | fs::perms::owner_write;
  CHECK(perms(dir.path() / "data" / "net" / "lock") == file);
  CHECK(perms(dir.path() / "data" / "net" / "10.0.0.2") == file);
  CHECK(perms(dir.path() / "data" / "net" / "last_reserved_ip.0") == file);
}
#endif
