// The owner index: kept by our own reservations and releases, trusted only
// while the network directory carries its seal, and never trusted after a
// change made behind its back or when it is damaged.

#include <doctest/doctest.h>

#include <filesystem>

#ifdef _WIN32
#include <windows.h>
#endif

#include "file_names.hpp"
#include "support.hpp"
#include "wincni/hostlocal/owner.hpp"
#include "wincni/hostlocal/owner_index.hpp"
#include "wincni/hostlocal/store.hpp"

using hostlocal_test::ip;
using hostlocal_test::TempDir;
using hostlocal_test::write_text;
using namespace wincni::hostlocal;

namespace fs = std::filesystem;

namespace {

const OwnerKey kA("a", "eth0");
const OwnerKey kB("b", "eth0");

// A store whose network holds 10.0.0.2 for a and 10.0.0.3 for b, reserved
// by the store itself, and whose session has ended.
struct IndexedNetwork {
  TempDir dir;
  Store store = Store::open(hostlocal_test::path_text(dir.path()), "net");
  fs::path net = dir.path() / "net";

  IndexedNetwork() {
    const auto session = store.lock();
    store.scan_owner(kA);
    REQUIRE(store.reserve(ip("10.0.0.2"), kA, "0"));
    REQUIRE(store.reserve(ip("10.0.0.3"), kB, "0"));
  }

  bool sealed() const { return OwnerIndex(net.generic_string()).sealed(); }

  Snapshot scan_owner(const OwnerKey& owner) {
    const auto session = store.lock();
    return store.scan_owner(owner);
  }
};

std::vector<wincni::cni::IpAddress> ips(std::initializer_list<const char*> texts) {
  std::vector<wincni::cni::IpAddress> out;
  for (const char* text : texts) out.push_back(ip(text));
  return out;
}

// The next session reads every file and writes the index again; the one
// after reads only what the index names. Both find `held`.
void check_rebuilt_then_used(IndexedNetwork& n, const OwnerKey& owner,
                             const std::vector<wincni::cni::IpAddress>& held) {
  const Snapshot whole = n.scan_owner(owner);
  CHECK(whole.complete);
  CHECK(whole.held_by(owner) == held);
  CHECK(n.sealed());
  const Snapshot partial = n.scan_owner(owner);
  CHECK_FALSE(partial.complete);
  CHECK(partial.held_by(owner) == held);
}

}  // namespace

TEST_CASE("our reservations keep the index, and a sealed network reads only the attachment's files") {
  IndexedNetwork n;
  CHECK(n.sealed());
  CHECK(fs::is_directory(n.net / ".wincni-owners"));
  const Snapshot a = n.scan_owner(kA);
  CHECK_FALSE(a.complete);
  CHECK(a.reservations.size() == 1);
  CHECK(a.held_by(kA) == ips({"10.0.0.2"}));
  CHECK(n.sealed());

  const auto session = n.store.lock();
  CHECK(n.store.name_in_use(ip("10.0.0.3")));
  CHECK_FALSE(n.store.name_in_use(ip("10.0.0.4")));
  Snapshot b = n.store.scan_owner(kB);
  n.store.release(b.reservations.at(ip("10.0.0.3")));
  CHECK(n.store.scan_owner(kB).reservations.empty());
}

TEST_CASE("a reservation written behind the index's back breaks the seal; the next session reads everything") {
  IndexedNetwork n;
  write_text(n.net / "10.0.0.7", "c\r\neth0");  // as the reference host-local writes one
  CHECK_FALSE(n.sealed());
  check_rebuilt_then_used(n, OwnerKey("c", "eth0"), ips({"10.0.0.7"}));
}

TEST_CASE("an address released and taken again behind the index's back, under the same name, is seen") {
  IndexedNetwork n;
  fs::remove(n.net / "10.0.0.2");
  write_text(n.net / "10.0.0.2", "d\r\neth0");
  const OwnerKey d("d", "eth0");
  CHECK(n.scan_owner(d).held_by(d) == ips({"10.0.0.2"}));
  CHECK(n.scan_owner(kA).held_by(kA).empty());
  CHECK(n.scan_owner(d).held_by(d) == ips({"10.0.0.2"}));
}

TEST_CASE("orphans and staging files are in every attachment's partial snapshot") {
  IndexedNetwork n;
  write_text(n.net / "10.0.0.9", "");  // what a writer killed before naming its owner leaves
  n.scan_owner(kA);                    // rebuilds the index
  write_text(n.net / std::string(kStagingFileName), "x\r\neth0");
  // Only a file written behind its back can be there while sealed; seal as
  // if nothing had been.
  REQUIRE(OwnerIndex(n.net.generic_string()).seal());
  const Snapshot a = n.scan_owner(kA);
  CHECK_FALSE(a.complete);
  CHECK(a.reservations.count(ip("10.0.0.9")) == 1);
  CHECK(a.reservations.at(ip("10.0.0.9")).content == "");
  CHECK(a.stale_files == std::vector<std::string>{std::string(kStagingFileName)});
}

TEST_CASE("removing the index's files behind its back breaks the folder's seal") {
  IndexedNetwork n;
  for (const auto& bucket : fs::directory_iterator(n.net / ".wincni-owners")) fs::remove(bucket.path());
  CHECK_FALSE(n.sealed());
  check_rebuilt_then_used(n, kA, ips({"10.0.0.2"}));
}

TEST_CASE("a damaged index is not trusted, and is written again") {
  IndexedNetwork n;
  for (const auto& bucket : fs::directory_iterator(n.net / ".wincni-owners")) write_text(bucket.path(), "10.0.0.2");
  REQUIRE(n.sealed());  // files inside the index's folder do not touch the network directory
  check_rebuilt_then_used(n, kA, ips({"10.0.0.2"}));
  CHECK(n.scan_owner(kB).held_by(kB) == ips({"10.0.0.3"}));
}

TEST_CASE("an index that cannot be written leaves every session reading everything") {
  IndexedNetwork n;
  fs::remove_all(n.net / ".wincni-owners");
  write_text(n.net / ".wincni-owners", "not a folder");
  for (int session = 0; session < 2; ++session) {
    CAPTURE(session);
    const Snapshot a = n.scan_owner(kA);
    CHECK(a.complete);
    CHECK(a.held_by(kA) == ips({"10.0.0.2"}));
    CHECK_FALSE(n.sealed());
  }
  const auto session = n.store.lock();
  n.store.scan_owner(kA);
  CHECK(n.store.reserve(ip("10.0.0.4"), kA, "0"));
  CHECK(n.store.scan_owner(kA).held_by(kA) == ips({"10.0.0.2", "10.0.0.4"}));
}

#ifdef _WIN32
TEST_CASE("a reservation that cannot be read keeps the index from being built without it") {
  IndexedNetwork n;
  write_text(n.net / "10.0.0.7", "c\r\neth0");
  const OwnerKey c("c", "eth0");
  {
    // Another process holding the file without sharing it (an antivirus, a
    // backup): host-local's read fails with a sharing violation.
    const HANDLE held = CreateFileW((n.net / "10.0.0.7").wstring().c_str(), GENERIC_READ, 0, nullptr, OPEN_EXISTING,
                                    FILE_ATTRIBUTE_NORMAL, nullptr);
    REQUIRE(held != INVALID_HANDLE_VALUE);
    const Snapshot blocked = n.scan_owner(c);
    CloseHandle(held);
    CHECK(blocked.complete);
    CHECK(blocked.unread_files);
    CHECK(blocked.held_by(c).empty());
    CHECK_FALSE(n.sealed());
  }
  check_rebuilt_then_used(n, c, ips({"10.0.0.7"}));
}
#endif
