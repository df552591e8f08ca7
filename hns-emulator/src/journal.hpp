#pragma once
// The journal, switched on by WINCNI_EMULATOR_JOURNAL=<file>: one JSON line
// per call, {"op","input","hresult","output","micros"} (+ "detail" on a
// failure, the reason HNS's own error text does not give, and on an answer a
// fault garbled), appended atomically so that concurrent processes can share
// one file. "micros" is the emulator's own time on the call (its lock, store
// and answer; not the caller's), what the benchmark takes out of a command's
// time to show the plugin's own share (docs/benchmarks.md).

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "wincni/hns/hresult.hpp"

namespace wincni::hns::emulator {

class Journal {
 public:
  explicit Journal(std::optional<std::string> path = std::nullopt) : path_(std::move(path)) {}

  bool enabled() const { return path_.has_value(); }
  // `output` is JSON text (embedded as JSON) or any other text (as a string).
  // `input` is called only when the journal is kept: describing a call costs
  // parsing its request again (about 1% of win-bridge's time in a profile of
  // ADD and DEL).
  void record(std::string_view op, const std::function<nlohmann::json()>& input, HResult result,
              std::string_view output, std::string_view detail = {},
              std::chrono::microseconds spent = std::chrono::microseconds{0}) const;

  // Text that is JSON becomes that JSON; anything else stays a string.
  static nlohmann::json embed(std::string_view text);

 private:
  std::optional<std::string> path_;
};

}  // namespace wincni::hns::emulator
