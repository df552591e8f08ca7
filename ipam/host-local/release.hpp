#pragma once
// Releasing reservations for DEL and GC: the selected ones, plus what a
// killed writer left behind (orphaned empty reservations, staging files),
// which under the lock can belong to no running process.

#include <functional>

#include "wincni/hostlocal/store.hpp"

namespace wincni::hostlocal {

// Keeps going past failures; throws cni::Error(kIoFailure) at the end with
// every failure's message joined by ";", as the reference joins DEL errors.
void release_where(Store& store, const Snapshot& snapshot, const std::function<bool(const Reservation&)>& selected);

}  // namespace wincni::hostlocal
