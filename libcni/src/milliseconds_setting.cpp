#include "wincni/cni/milliseconds_setting.hpp"

#include <charconv>

namespace wincni::cni {

std::optional<std::chrono::milliseconds> milliseconds_setting(std::string_view text) {
  long long milliseconds = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), milliseconds);
  if (error != std::errc{} || end != text.data() + text.size() || milliseconds <= 0) return std::nullopt;
  return std::chrono::milliseconds(milliseconds);
}

}  // namespace wincni::cni
