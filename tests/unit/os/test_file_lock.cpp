// FileLock between threads of one process, each with its own lock, in both
// families: what host-local's plugins take (flock) and what the HNS
// emulator's native and Wine processes share (record). Between processes:
// host-local's and the engine's tests, and lock_interop.py under Wine.

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "scratch_dir.hpp"
#include "wincni/os/error.hpp"
#include "wincni/os/file_lock.hpp"

using wincni::os::FileLock;
using wincni::test::ScratchDir;

namespace {

using Sharing = FileLock::Sharing;
using Family = FileLock::Family;

// Whether another thread is granted `wanted` on `path` while this one holds
// `held`. A lock that should be granted is waited for up to 10 s (a loaded
// machine); one that should not, 300 ms: a broken exclusion grants at once.
bool granted_beside(const std::string& path, Family family, Sharing held, Sharing wanted, bool expected) {
  std::atomic<bool> holding{true};
  std::atomic<int> granted_while_held{-1};
  std::thread other;
  {
    FileLock holder(path, held, family);
    other = std::thread([&] {
      FileLock second(path, wanted, family);
      granted_while_held = holding.load() ? 1 : 0;
    });
    const auto patience = expected ? std::chrono::milliseconds(10'000) : std::chrono::milliseconds(300);
    const auto deadline = std::chrono::steady_clock::now() + patience;
    while (granted_while_held.load() < 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    holding = false;
  }
  other.join();  // granted now, if it was waiting
  return granted_while_held.load() == 1;
}

}  // namespace

TEST_CASE("a lock excludes the other threads of its process as its sharing says, in both families") {
  ScratchDir dir;
  for (const Family family : {Family::kFlock, Family::kRecord}) {
    const std::string path = (dir / (family == Family::kFlock ? "flock.lock" : "record.lock")).string();
    CAPTURE(path);
    CHECK_FALSE(granted_beside(path, family, Sharing::kExclusive, Sharing::kExclusive, false));
    CHECK_FALSE(granted_beside(path, family, Sharing::kExclusive, Sharing::kShared, false));
    CHECK_FALSE(granted_beside(path, family, Sharing::kShared, Sharing::kExclusive, false));
    CHECK(granted_beside(path, family, Sharing::kShared, Sharing::kShared, true));
  }
}

TEST_CASE("a bounded wait gives up with try-again-later naming the lock, and takes it once it is free") {
  ScratchDir dir;
  const std::string path = (dir / "bounded.lock").string();
  {
    FileLock holder(path);
    std::thread other([&] {
      try {
        FileLock second(path, std::chrono::milliseconds(50));
        FAIL("granted while another held it");
      } catch (const wincni::os::Error& error) {
        CHECK(error.code() == wincni::os::kTryAgainLater);
        CHECK(error.msg().find(path) != std::string::npos);
      }
    });
    other.join();
  }
  FileLock free_now(path, std::chrono::milliseconds(50));
}
