#pragma once
// A lock between processes, and between threads that each take their own:
// flock on Linux, LockFileEx on the first byte on Windows — the
// same locks the reference plugins take, so ours and theirs exclude each
// other. The lock file is created when missing and never removed; the OS
// drops the lock when its holder dies, so a crashed plugin never leaves it
// held.

#include <chrono>
#include <cstdint>
#include <string>

namespace wincni::os {

class FileLock {
 public:
  enum class Sharing { kExclusive, kShared };
  // Which kind of lock the peers on Linux take and see. Go's reference
  // plugins take flock (kFlock, the default), and Linux keeps flock and
  // POSIX record locks apart; Wine turns LockFileEx into a POSIX record
  // lock, so the HNS emulator's state, shared by native and Wine processes,
  // takes one of those (kRecord: an open file description lock on the whole
  // file, which also excludes other threads of this process). On Windows
  // both are LockFileEx: kFlock on the first byte, as the reference plugins
  // lock, kRecord on every byte, which Wine turns into that same lock.
  // A record lock is an open file description's: a thread that takes a
  // second one on a file it holds waits for itself for ever, and a child
  // forked without exec keeps it.
  enum class Family { kFlock, kRecord };

  // Blocks until the lock is granted. The directory must exist.
  FileLock(const std::string& path, Sharing sharing, Family family);
  // Blocks until the lock is granted. The directory must exist; a file
  // created here inherits that directory's permissions.
  // cni::Error kIoFailure naming the path when it cannot.
  explicit FileLock(const std::string& path);
  // Waits at most `limit`: cni::Error kTryAgainLater naming the path when
  // another process held the lock all that time (one that hangs, or someone
  // squatting the file: a plugin never waits for ever on a lock anyone
  // could take).
  FileLock(const std::string& path, std::chrono::milliseconds limit);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  // Opens the lock file, never through a link.
  static std::intptr_t open_lock_file(const std::string& path, Family family);
  // True when granted; false, with nothing held, when `wait` is false and
  // another holder conflicts. cni::Error kIoFailure when the OS refuses.
  static bool try_lock(std::intptr_t handle, Sharing sharing, Family family, bool wait, const std::string& path);
  // Closing drops the lock.
  static void close_lock_file(std::intptr_t handle);
  std::intptr_t handle_;
};

}  // namespace wincni::os
