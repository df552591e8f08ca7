#include "state_store.hpp"

#include <mutex>

#include "platform.hpp"
#include "wincni/hns/schema/json_io.hpp"

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
    : directory_(std::move(directory)),
      state_path_(directory_ + "/state.json"),
      lock_path_(directory_ + "/state.lock") {}

EmulatorState StateStore::load() const {
  auto content = read_file(state_path_);
  if (!content || content->empty()) return EmulatorState{};
  return EmulatorState::from_json(json_io::parse_object(*content, state_path_));
}

void StateStore::update(const std::function<bool(EmulatorState&)>& change) {
  std::lock_guard<std::mutex> in_process(process_mutex());
  make_directories(directory_);
  FileLock lock(lock_path_, FileLock::Mode::Exclusive);
  EmulatorState state = load();
  if (change(state)) write_file_atomic(state_path_, state.to_json().dump(1));
}

void StateStore::inspect(const std::function<void(EmulatorState&)>& look) {
  std::lock_guard<std::mutex> in_process(process_mutex());
  make_directories(directory_);
  FileLock lock(lock_path_, FileLock::Mode::Shared);
  EmulatorState state = load();
  look(state);
}

}  // namespace wincni::hns::emulator
