#pragma once
// An exclusive lock between processes, and between threads that each take
// their own: flock on Linux, LockFileEx on the first byte on Windows — the
// same locks the reference plugins take, so ours and theirs exclude each
// other. The lock file is created when missing and never removed; the OS
// drops the lock when its holder dies, so a crashed plugin never leaves it
// held.

#include <chrono>
#include <cstdint>
#include <string>

namespace wincni::cni {

class FileLock {
 public:
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
  static std::intptr_t open_lock_file(const std::string& path);
  std::intptr_t handle_;
};

}  // namespace wincni::cni
