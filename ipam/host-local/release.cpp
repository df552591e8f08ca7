#include "release.hpp"

#include <string>
#include <vector>

#include "wincni/cni/error.hpp"

namespace wincni::hostlocal {

void release_where(Store& store, const Snapshot& snapshot, const std::function<bool(const Reservation&)>& selected) {
  std::vector<std::string> failures;
  const auto attempt = [&failures](const auto& remove) {
    try {
      remove();
    } catch (const cni::Error& e) {
      failures.push_back(e.msg());
    }
  };
  for (const auto& entry : snapshot.reservations) {
    // Not a structured binding: clang before 16 cannot capture one.
    const Reservation& reservation = entry.second;
    const bool orphan = reservation.content && is_orphan(*reservation.content);
    if (orphan || selected(reservation)) attempt([&] { store.release(reservation); });
  }
  for (const auto& name : snapshot.stale_files) attempt([&] { store.remove_stale(name); });
  if (failures.empty()) return;
  std::string joined;
  for (const auto& failure : failures) joined += (joined.empty() ? "" : ";") + failure;
  throw cni::Error(cni::kIoFailure, joined);
}

}  // namespace wincni::hostlocal
