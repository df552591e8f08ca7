#pragma once
// The on-disk store of one network, <dataDir>/<network>, in the reference's
// format (file_names.hpp, owner.hpp) so that the two plugins can take turns on
// one node. Every method but lock() expects the caller to hold the lock.
//
// Crash safety: a reservation file is published atomically with its owner
// already in it (cni::private_files::publish_file_exclusive), so a process killed at any
// instant leaves either no file or a file that DEL and GC match; a stale
// staging file is never an address and is swept under the lock.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "owner.hpp"
#include "wincni/cni/file_lock.hpp"
#include "wincni/cni/ip.hpp"

namespace wincni::hostlocal {

struct Reservation {
  cni::IpAddress ip;
  std::string file_name;
  // nullopt: the name is taken by something that is not a readable regular
  // file; it blocks the address but has no owner to match.
  std::optional<std::string> content;
};

// Everything in the directory at one moment: the addresses whose names are
// taken, what the reservation files say, and leftover staging files.
struct Snapshot {
  std::map<cni::IpAddress, Reservation> reservations;
  std::vector<std::string> stale_files;

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

  cni::FileLock lock() const;

  Snapshot scan() const;
  // Publishes the reservation with its owner; false when the address is
  // taken. On success records the address as the set's last reserved one.
  bool reserve(const cni::IpAddress& ip, const OwnerKey& owner, std::string_view range_id);
  // The set's round-robin position; nullopt when absent or unreadable (the
  // reference then starts from the beginning too).
  std::optional<cni::IpAddress> last_reserved(std::string_view range_id) const;
  void release(const Reservation& reservation);
  void remove_stale(const std::string& file_name);
  // Writes and removes a private file: STATUS's check that ADD could write.
  void probe_writable();

 private:
  explicit Store(std::string dir) : dir_(std::move(dir)) {}
  static std::string network_directory(std::string_view data_dir, std::string_view network);

  std::string dir_;
};

}  // namespace wincni::hostlocal
