#include "wincni/os/windows_build.hpp"

#include <charconv>
#include <vector>

#include <fmt/format.h>

namespace wincni::os {

std::string WindowsBuild::str() const { return fmt::format("{}.{}.{}.{}", major, minor, build, revision); }

std::optional<WindowsBuild> WindowsBuild::parse(const std::string& text) {
  std::vector<unsigned> parts;
  const char* at = text.data();
  const char* const end = text.data() + text.size();
  while (at < end) {
    unsigned value = 0;
    const auto [next, error] = std::from_chars(at, end, value);
    if (error != std::errc() || next == at) return std::nullopt;
    parts.push_back(value);
    at = next;
    if (at == end) break;
    if (*at != '.' || ++at == end) return std::nullopt;
  }
  if (parts.size() < 3 || parts.size() > 4) return std::nullopt;
  return WindowsBuild{parts[0], parts[1], parts[2], parts.size() == 4 ? parts[3] : 0};
}

}  // namespace wincni::os
