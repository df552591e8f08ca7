#pragma once
// The on-disk store of one network, <dataDir>/<network>, in the reference's
// format (file_names.hpp, owner.hpp) so that the two plugins can take turns on
// one node. Every method but lock() expects the caller to hold the lock.
//
// Crash safety: a reservation file is published atomically with its owner
// already in it (os::private_files::publish_file_exclusive), so a process killed at any
// instant leaves either no file or a file that DEL and GC match; a stale
// staging file is never an address and is swept under the lock.
//
// Under the lock the store keeps its owner index (owner_index.hpp) in step
// with every reservation it publishes or releases, and seals it when the
// lock is let go; an index found unsealed is rebuilt by the next full scan.

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "wincni/os/file_lock.hpp"
#include "wincni/cni/ip.hpp"
#include "wincni/hostlocal/owner.hpp"
#include "wincni/hostlocal/owner_index.hpp"

namespace wincni::hostlocal {

struct Reservation {
  cni::IpAddress ip;
  std::string file_name;
  // nullopt: the name is taken by something that is not a readable regular
  // file; it blocks the address but has no owner to match.
  std::optional<std::string> content;
};

// What the directory holds at one moment: the addresses whose names are
// taken, what the reservation files say, and leftover staging files. A
// partial snapshot (Store::scan_owner) holds one attachment's reservations
// and the orphans only; whether another address is taken is then asked of
// the store.
struct Snapshot {
  std::map<cni::IpAddress, Reservation> reservations;
  std::vector<std::string> stale_files;
  bool complete = true;
  // Some regular file named as an address could not be read: whose it is,
  // is unknown.
  bool unread_files = false;

  bool taken(const cni::IpAddress& ip) const { return reservations.count(ip) != 0; }
  // Addresses whose file names `owner` as the reference's GetByID does
  // (exact, or the legacy bare ID).
  std::vector<cni::IpAddress> held_by(const OwnerKey& owner) const;
};

class Store {
 public:
  // An empty data_dir means the default. Creates the network directory
  // (private) when missing. Throws code 7 for a network name that is not a
  // plain directory name, 5 for I/O failures.
  static Store open(std::string_view data_dir, std::string_view network);
  // nullopt when the network directory does not exist (nothing was ever
  // allocated there): DEL, CHECK and GC create nothing.
  static std::optional<Store> open_existing(std::string_view data_dir, std::string_view network);

  const std::string& directory() const { return dir_; }

  // How long a command waits for the network's lock: every holder keeps it
  // for milliseconds, so a wait this long is a hung holder, and a plugin
  // never waits for ever (cni::Error kTryAgainLater naming the lock file).
  static constexpr std::chrono::milliseconds kLockLimit = std::chrono::minutes(2);

  // The network's lock; while it is held the owner index is read and kept.
  class Session {
   public:
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    // Seals the index if it was whole when the lock was taken (or rebuilt
    // since) and every change reached it, then lets the lock go.
    ~Session();

   private:
    friend class Store;
    Session(Store& store, std::chrono::milliseconds limit);
    Store& store_;
    os::FileLock lock_;
  };
  [[nodiscard]] Session lock(std::chrono::milliseconds limit = kLockLimit);

  // Every reservation, read.
  Snapshot scan();
  // The addresses whose names are taken, from the listing alone: what
  // STATUS needs, without reading thousands of files every kubelet poll.
  std::set<cni::IpAddress> taken_addresses() const;
  // What `owner` holds, the orphans and the staging files, from the owner
  // index when it can be trusted (a partial snapshot), else scan().
  Snapshot scan_owner(const OwnerKey& owner);
  // Whether anything has the address's file name (taken, as far as a
  // partial snapshot cannot tell).
  bool name_in_use(const cni::IpAddress& ip) const;
  // Publishes the reservation with its owner; false when the address is
  // taken. On success records the address as the set's last reserved one.
  bool reserve(const cni::IpAddress& ip, const OwnerKey& owner, std::string_view range_id);
  // The set's round-robin position; nullopt when absent or unreadable (the
  // reference then starts from the beginning too).
  std::optional<cni::IpAddress> last_reserved(std::string_view range_id) const;
  void release(const Reservation& reservation);
  void remove_stale(const std::string& file_name);

  // Where the network's reservations are kept under data_dir.
  static std::string network_directory(std::string_view data_dir, std::string_view network);

 private:
  // Whether the owner index can be used and must be kept: unknown outside a
  // session, then whether it was sealed when the lock was taken.
  enum class IndexState { kNoSession, kTrusted, kUntrusted };

  explicit Store(std::string dir) : dir_(std::move(dir)), index_(dir_) {}
  // Runs `change` (true when it changed the directory), then `follow` to
  // bring the index in step. A failure of `follow` leaves the network
  // unsealed for the next session to rebuild, and never fails the command.
  template <typename Change, typename Follow>
  bool change_indexed(Change change, Follow follow);
  // Adds the file to the snapshot if its name is an address.
  void read_reservation(Snapshot& snapshot, std::string file_name, bool regular_file) const;

  std::string dir_;
  OwnerIndex index_;
  IndexState index_state_ = IndexState::kNoSession;
};

}  // namespace wincni::hostlocal
