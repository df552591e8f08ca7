#include "state_store.hpp"

#include <mutex>

#include "state_files.hpp"
#include "store_layout.hpp"

namespace wincni::hns::emulator {
namespace {

// One thread of a process at a time: the state lock excludes threads too
// (an open file description lock), and this keeps them queued in-process
// rather than polling the OS.
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
  StateLock lock(lock_path_, StateLock::Mode::kExclusive);
  CommitRecord::recover(directory_);
  EmulatorState state(directory_);
  if (change(state)) state.changes().commit(directory_);
}

void StateStore::inspect(const std::function<void(EmulatorState&)>& look) {
  std::lock_guard<std::mutex> in_process(process_mutex());
  make_directories(directory_);
  for (;;) {
    {
      StateLock lock(lock_path_, StateLock::Mode::kShared);
      if (!CommitRecord::pending(directory_)) {
        EmulatorState state(directory_);
        look(state);
        return;
      }
    }
    // A writer died part-way: finish its commit (which needs the exclusive
    // lock) before reading.
    StateLock lock(lock_path_, StateLock::Mode::kExclusive);
    CommitRecord::recover(directory_);
  }
}

}  // namespace wincni::hns::emulator
