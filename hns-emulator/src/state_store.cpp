#include "state_store.hpp"

#include <mutex>

#include "platform.hpp"
#include "store_layout.hpp"

namespace wincni::hns::emulator {
namespace {

// Byte-range locks belong to the process, not the thread: two threads of one
// process would both be granted the lock. This mutex orders them first.
std::mutex& process_mutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

StateStore::StateStore(std::string directory)
    : directory_(std::move(directory)), lock_path_(directory_ + "/" + layout::kLockFile) {}

void StateStore::update(const std::function<bool(EmulatorState&)>& change) {
  std::lock_guard<std::mutex> in_process(process_mutex());
  make_directories(directory_);
  FileLock lock(lock_path_, FileLock::Mode::Exclusive);
  CommitRecord::recover(directory_);
  EmulatorState state(directory_);
  if (change(state)) state.changes().commit(directory_);
}

void StateStore::inspect(const std::function<void(EmulatorState&)>& look) {
  std::lock_guard<std::mutex> in_process(process_mutex());
  make_directories(directory_);
  for (;;) {
    {
      FileLock lock(lock_path_, FileLock::Mode::Shared);
      if (!CommitRecord::pending(directory_)) {
        EmulatorState state(directory_);
        look(state);
        return;
      }
    }
    // A writer died part-way: finish its commit (which needs the exclusive
    // lock) before reading.
    FileLock lock(lock_path_, FileLock::Mode::Exclusive);
    CommitRecord::recover(directory_);
  }
}

}  // namespace wincni::hns::emulator
