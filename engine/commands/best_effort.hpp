#pragma once
// Teardown that keeps going: DEL and GC attempt every step even when one
// fails, and report the first failure at the end.

#include <exception>
#include <optional>
#include <string_view>

#include "wincni/cni/error.hpp"
#include "wincni/cni/log.hpp"

namespace wincni::engine {

class BestEffort {
 public:
  explicit BestEffort(const cni::Logger& log) : log_(log) {}

  template <typename Step>
  void attempt(std::string_view what, Step&& step) {
    try {
      step();
    } catch (const cni::Error& e) {
      record(what, e);
    } catch (const std::exception& e) {
      record(what, cni::Error(cni::kInternal, e.what()));
    }
  }

  // Throws the first failure, if there was one.
  void finish() const {
    if (first_) throw *first_;
  }

 private:
  void record(std::string_view what, const cni::Error& error) {
    log_.error("{} failed: {}", what, error.msg());
    if (!first_) first_ = error;
  }

  const cni::Logger& log_;
  std::optional<cni::Error> first_;
};

}  // namespace wincni::engine
