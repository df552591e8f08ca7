#pragma once
// The state directory: one JSON file, read and written under a lock so that
// a sequence of plugin processes sees one consistent host.
//   <dir>/state.json   the store (rewritten atomically)
//   <dir>/state.lock   the inter-process lock; never removed
// Every call costs one read, and one atomic write when it changed something.

#include <functional>
#include <string>

#include "state.hpp"

namespace wincni::hns::emulator {

class StateStore {
 public:
  explicit StateStore(std::string directory);

  const std::string& directory() const { return directory_; }

  // Runs `change` on the current state under the exclusive lock, and writes
  // the state back when it returns true.
  void update(const std::function<bool(EmulatorState&)>& change);
  // Runs `look` on a copy of the current state under a shared lock; what it
  // changes is dropped.
  void inspect(const std::function<void(EmulatorState&)>& look);

 private:
  EmulatorState load() const;

  std::string directory_;
  std::string state_path_;
  std::string lock_path_;
};

}  // namespace wincni::hns::emulator
