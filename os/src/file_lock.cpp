// The waits, the same on every OS; file_lock_<os>.cpp opens, locks and
// closes.

#include <algorithm>
#include <thread>

#include <fmt/format.h>

#include "wincni/os/error.hpp"
#include "wincni/os/file_lock.hpp"

namespace wincni::os {

namespace {

// The longest pause between two tries of a bounded wait: every holder keeps
// a plugin's lock for milliseconds, and a waiter asleep after it is let go
// is latency every queued pod pays (host-local's lock, 50 pods at once).
constexpr std::chrono::milliseconds kLongestPause(5);

}  // namespace

FileLock::FileLock(const std::string& path) : FileLock(path, Sharing::kExclusive, Family::kFlock) {}

FileLock::FileLock(const std::string& path, Sharing sharing, Family family) : handle_(open_lock_file(path, family)) {
  try {
    try_lock(handle_, sharing, family, true, path);
  } catch (...) {
    close_lock_file(handle_);
    throw;
  }
}

FileLock::FileLock(const std::string& path, std::chrono::milliseconds limit)
    : handle_(open_lock_file(path, Family::kFlock)) {
  // A day at most: a limit from the environment near the clock's range
  // would overflow the deadline.
  limit = std::min<std::chrono::milliseconds>(limit, std::chrono::hours(24));
  const auto deadline = std::chrono::steady_clock::now() + limit;
  auto pause = std::chrono::milliseconds(1);
  try {
    while (!try_lock(handle_, Sharing::kExclusive, Family::kFlock, false, path)) {
      if (std::chrono::steady_clock::now() >= deadline) {
        throw Error(kTryAgainLater,
                    fmt::format("waited {} ms for the lock {}: another process holds it", limit.count(), path));
      }
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, kLongestPause);
    }
  } catch (...) {
    close_lock_file(handle_);
    throw;
  }
}

FileLock::~FileLock() { close_lock_file(handle_); }

}  // namespace wincni::os
