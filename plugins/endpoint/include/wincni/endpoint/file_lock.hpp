#pragma once
// An exclusive lock between processes (and between threads that each take
// one): flock on Linux, LockFileEx on Windows, on a file that is created when
// missing and never removed. The operating system drops it when its holder
// dies, so a crashed plugin never leaves the lock held.

#include <cstdint>
#include <string>

namespace wincni::endpoint {

class FileLock {
 public:
  // Creates the directories on the way; blocks until the lock is granted.
  // cni::Error 5 (I/O failure) naming the path when it cannot.
  explicit FileLock(const std::string& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  std::intptr_t handle_;
};

}  // namespace wincni::endpoint
