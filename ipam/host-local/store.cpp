#include "wincni/hostlocal/store.hpp"

#include "file_names.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/os/file_times.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::hostlocal {

namespace files = os::private_files;
namespace file_times = os::file_times;

namespace {

// The reference's default on every OS: on Windows it is
// \var\lib\cni\networks on the current drive.
constexpr std::string_view kDefaultDataDir = "/var/lib/cni/networks";

// The index's key of a reservation file: what a rebuild reads from it.
std::string indexed_owner(std::string_view content) { return std::string(owner_container_id(content)); }

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
  files::require_administrators_only(dir);
  files::create_private_directories(dir);
  // Again: someone may have made a missing folder above in between.
  files::require_administrators_only(dir);
  return Store(std::move(dir));
}

std::optional<Store> Store::open_existing(std::string_view data_dir, std::string_view network) {
  std::string dir = network_directory(data_dir, network);
  if (!files::is_directory(dir)) return std::nullopt;
  return Store(std::move(dir));
}

Store::Session::Session(Store& store, std::chrono::milliseconds limit)
    : store_(store), lock_(files::join(store.dir_, kLockFileName), limit) {
  store_.index_state_ = store_.index_.sealed() ? IndexState::kTrusted : IndexState::kUntrusted;
}

Store::Session::~Session() {
  if (store_.index_state_ == IndexState::kTrusted) store_.index_.seal();
  store_.index_state_ = IndexState::kNoSession;
}

Store::Session Store::lock(std::chrono::milliseconds limit) { return Session(*this, limit); }

template <typename Change, typename Follow>
bool Store::change_indexed(Change change, Follow follow) {
  const bool followed = index_state_ == IndexState::kTrusted;
  // Untrusted from before the change until the index has followed it: a
  // failure of any kind in between leaves the network unsealed.
  if (followed) index_state_ = IndexState::kUntrusted;
  const bool changed = change();
  if (followed) {
    try {
      if (changed) follow();
      index_state_ = IndexState::kTrusted;
    } catch (const cni::Error&) {
      // The next session reads every file and rebuilds.
    }
  }
  return changed;
}

void Store::read_reservation(Snapshot& snapshot, std::string file_name, bool regular_file) const {
  const auto ip = ip_from_file_name(file_name, platform_escapes_colons());
  if (!ip) return;
  Reservation reservation{*ip, std::move(file_name), std::nullopt};
  if (regular_file) {
    try {
      reservation.content = files::read_file(files::join(dir_, reservation.file_name));
      if (!reservation.content) return;  // vanished since listing: the address is free again
    } catch (const cni::Error&) {
      // Unreadable: it still blocks the address, and no owner can be
      // matched, as for the reference (its walk skips such files).
      snapshot.unread_files = true;
    }
  }
  snapshot.reservations.emplace(*ip, std::move(reservation));
}

Snapshot Store::scan() {
  Snapshot snapshot;
  for (auto& entry : files::list_directory(dir_)) {
    if (entry.name == kStagingFileName || entry.name == kProbeFileName) {
      snapshot.stale_files.push_back(std::move(entry.name));
      continue;
    }
    read_reservation(snapshot, std::move(entry.name), entry.regular_file);
  }
  // A file that could not be read now (a sharing violation, EIO) may name
  // an owner: an index built without it would miss it for good.
  if (index_state_ == IndexState::kUntrusted && !snapshot.unread_files) {
    try {
      index_.rebuild(snapshot);
      index_state_ = IndexState::kTrusted;
    } catch (const cni::Error&) {
      // Stays untrusted: every session reads every file, as the reference does.
    }
  }
  return snapshot;
}

std::set<cni::IpAddress> Store::taken_addresses() const {
  std::set<cni::IpAddress> taken;
  for (const auto& entry : files::list_directory(dir_)) {
    if (const auto ip = ip_from_file_name(entry.name, platform_escapes_colons())) taken.insert(*ip);
  }
  return taken;
}

Snapshot Store::scan_owner(const OwnerKey& owner) {
  if (index_state_ != IndexState::kTrusted) return scan();
  Snapshot snapshot;
  snapshot.complete = false;
  try {
    // An empty file is indexed under no ID: the orphans DEL releases.
    for (const std::string& id : {indexed_owner(owner.content()), std::string()}) {
      for (std::string& name : index_.names_for(id)) read_reservation(snapshot, std::move(name), true);
    }
  } catch (const cni::Error&) {
    index_state_ = IndexState::kUntrusted;
    return scan();
  }
  for (const std::string_view stale : {kStagingFileName, kProbeFileName}) {
    if (file_times::entry_exists(files::join(dir_, stale))) snapshot.stale_files.emplace_back(stale);
  }
  return snapshot;
}

bool Store::name_in_use(const cni::IpAddress& ip) const {
  return file_times::entry_exists(files::join(dir_, ip_file_name(ip, platform_escapes_colons())));
}

bool Store::reserve(const cni::IpAddress& ip, const OwnerKey& owner, std::string_view range_id) {
  const std::string name = ip_file_name(ip, platform_escapes_colons());
  const bool reserved =
      change_indexed([&] { return files::publish_file_exclusive(dir_, name, kStagingFileName, owner.content()); },
                     [&] { index_.add(name, indexed_owner(owner.content())); });
  if (reserved) files::overwrite_file(files::join(dir_, last_reserved_file_name(range_id)), ip.str());
  return reserved;
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

void Store::release(const Reservation& reservation) {
  change_indexed([&] { return files::remove_file(files::join(dir_, reservation.file_name)); },
                 [&] {
                   // A file that could not be read was never indexed.
                   if (reservation.content) index_.remove(reservation.file_name, indexed_owner(*reservation.content));
                 });
}

void Store::remove_stale(const std::string& file_name) { files::remove_file(files::join(dir_, file_name)); }

}  // namespace wincni::hostlocal
