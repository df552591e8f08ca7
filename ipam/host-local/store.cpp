#include "store.hpp"

#include "file_names.hpp"
#include "wincni/cni/error.hpp"

namespace wincni::hostlocal {

std::vector<cni::IpAddress> Snapshot::held_by(const OwnerKey& owner) const {
  std::vector<cni::IpAddress> held;
  for (const auto& [ip, reservation] : reservations) {
    if (reservation.content && owner.ownership(*reservation.content) != Ownership::kNone) held.push_back(ip);
  }
  return held;
}

std::string Store::network_directory(std::string_view data_dir, std::string_view network) {
  check_network_name(network);
  return platform::join(data_dir.empty() ? platform::default_data_dir() : std::string(data_dir), network);
}

Store Store::open(std::string_view data_dir, std::string_view network) {
  std::string dir = network_directory(data_dir, network);
  platform::create_private_directories(dir);
  return Store(std::move(dir));
}

std::optional<Store> Store::open_existing(std::string_view data_dir, std::string_view network) {
  std::string dir = network_directory(data_dir, network);
  if (!platform::is_directory(dir)) return std::nullopt;
  return Store(std::move(dir));
}

cni::FileLock Store::lock() const { return cni::FileLock(platform::join(dir_, kLockFileName)); }

Snapshot Store::scan() const {
  Snapshot snapshot;
  const bool escaped = platform::escapes_colons();
  for (auto& entry : platform::list_directory(dir_)) {
    if (entry.name == kStagingFileName || entry.name == kProbeFileName) {
      snapshot.stale_files.push_back(std::move(entry.name));
      continue;
    }
    const auto ip = ip_from_file_name(entry.name, escaped);
    if (!ip) continue;
    Reservation reservation{*ip, std::move(entry.name), std::nullopt};
    if (entry.regular_file) {
      try {
        reservation.content = platform::read_file(platform::join(dir_, reservation.file_name));
        if (!reservation.content) continue;  // vanished since listing: the address is free again
      } catch (const cni::Error&) {
        // Unreadable: it still blocks the address, and no owner can be
        // matched, as for the reference (its walk skips such files).
      }
    }
    snapshot.reservations.emplace(*ip, std::move(reservation));
  }
  return snapshot;
}

bool Store::reserve(const cni::IpAddress& ip, const OwnerKey& owner, std::string_view range_id) {
  const std::string name = ip_file_name(ip, platform::escapes_colons());
  if (!platform::publish_file_exclusive(dir_, name, kStagingFileName, owner.content())) return false;
  platform::overwrite_file(platform::join(dir_, last_reserved_file_name(range_id)), ip.str());
  return true;
}

std::optional<cni::IpAddress> Store::last_reserved(std::string_view range_id) const {
  std::optional<std::string> text;
  try {
    text = platform::read_file(platform::join(dir_, last_reserved_file_name(range_id)));
  } catch (const cni::Error&) {
    return std::nullopt;  // only costs round-robin fairness, as in the reference
  }
  if (!text) return std::nullopt;
  return cni::IpAddress::parse(*text);
}

void Store::release(const Reservation& reservation) { platform::remove_file(platform::join(dir_, reservation.file_name)); }

void Store::remove_stale(const std::string& file_name) { platform::remove_file(platform::join(dir_, file_name)); }

void Store::probe_writable() {
  const std::string probe = platform::join(dir_, kProbeFileName);
  platform::overwrite_file(probe, "probe");
  platform::remove_file(probe);
}

}  // namespace wincni::hostlocal
