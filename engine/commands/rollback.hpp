#pragma once
// Undo for a multi-step ADD: each step that acquires something registers how
// to give it back; unless the ADD commits, the undo steps run newest first
// when the Rollback goes out of scope (the error is on its way up). An undo
// step that fails is logged and the others still run: the error the runtime
// sees is the one that stopped the ADD.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "wincni/cni/log.hpp"

namespace wincni::engine {

class Rollback {
 public:
  explicit Rollback(const cni::Logger& log) : log_(log) {}
  ~Rollback() { run(); }
  Rollback(const Rollback&) = delete;
  Rollback& operator=(const Rollback&) = delete;

  void push(std::string what, std::function<void()> undo) { steps_.push_back({std::move(what), std::move(undo)}); }
  void commit() { steps_.clear(); }

 private:
  void run() noexcept {
    while (!steps_.empty()) {
      auto [what, undo] = std::move(steps_.back());
      steps_.pop_back();
      try {
        undo();
        log_.info("rolled back: {}", what);
      } catch (const std::exception& e) {
        log_.error("could not roll back {}: {}", what, e.what());
      }
    }
  }

  const cni::Logger& log_;
  std::vector<std::pair<std::string, std::function<void()>>> steps_;
};

}  // namespace wincni::engine
