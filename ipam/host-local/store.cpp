#include "store.hpp"

#include "file_names.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/private_files.hpp"

namespace wincni::hostlocal {

namespace files = cni::private_files;

namespace {

// The reference's default on every OS: on Windows it is
// \var\lib\cni\networks on the current drive.
constexpr std::string_view kDefaultDataDir = "/var/lib/cni/networks";

}  // namespace

std::vector<cni::IpAddress> Snapshot::held_by(const OwnerKey& owner) const {
  std::vector<cni::IpAddress> held;
  for (const auto& [ip, reservation] : reservations) {
    if (reservation.content && owner.ownership(*reservation.content) != Ownership::kNone) held.push_back(ip);
  }
  return held;
}

std::string Store::network_directory(std::string_view data_dir, std::string_view network) {
  check_network_name(network);
  return files::join(data_dir.empty() ? kDefaultDataDir : data_dir, network);
}

Store Store::open(std::string_view data_dir, std::string_view network) {
  std::string dir = network_directory(data_dir, network);
  files::create_private_directories(dir);
  return Store(std::move(dir));
}

std::optional<Store> Store::open_existing(std::string_view data_dir, std::string_view network) {
  std::string dir = network_directory(data_dir, network);
  if (!files::is_directory(dir)) return std::nullopt;
  return Store(std::move(dir));
}

cni::FileLock Store::lock() const { return cni::FileLock(files::join(dir_, kLockFileName)); }

Snapshot Store::scan() const {
  Snapshot snapshot;
  const bool escaped = platform_escapes_colons();
  for (auto& entry : files::list_directory(dir_)) {
    if (entry.name == kStagingFileName || entry.name == kProbeFileName) {
      snapshot.stale_files.push_back(std::move(entry.name));
      continue;
    }
    const auto ip = ip_from_file_name(entry.name, escaped);
    if (!ip) continue;
    Reservation reservation{*ip, std::move(entry.name), std::nullopt};
    if (entry.regular_file) {
      try {
        reservation.content = files::read_file(files::join(dir_, reservation.file_name));
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
  const std::string name = ip_file_name(ip, platform_escapes_colons());
  if (!files::publish_file_exclusive(dir_, name, kStagingFileName, owner.content())) return false;
  files::overwrite_file(files::join(dir_, last_reserved_file_name(range_id)), ip.str());
  return true;
}

std::optional<cni::IpAddress> Store::last_reserved(std::string_view range_id) const {
  std::optional<std::string> text;
  try {
    text = files::read_file(files::join(dir_, last_reserved_file_name(range_id)));
  } catch (const cni::Error&) {
    return std::nullopt;  // only costs round-robin fairness, as in the reference
  }
  if (!text) return std::nullopt;
  return cni::IpAddress::parse(*text);
}

void Store::release(const Reservation& reservation) { files::remove_file(files::join(dir_, reservation.file_name)); }

void Store::remove_stale(const std::string& file_name) { files::remove_file(files::join(dir_, file_name)); }

void Store::probe_writable() {
  const std::string probe = files::join(dir_, kProbeFileName);
  files::overwrite_file(probe, "probe");
  files::remove_file(probe);
}

}  // namespace wincni::hostlocal
