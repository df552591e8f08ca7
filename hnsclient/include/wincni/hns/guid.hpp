#pragma once
// GUIDs the way HNS writes them: 36 characters, upper-case, no braces.
// Input is accepted in any case, with or without braces.

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wincni::hns {

// Same layout as the Windows GUID struct, so a computenetwork.dll shim can
// pass a REFGUID straight through.
struct Guid {
  std::uint32_t data1 = 0;
  std::uint16_t data2 = 0;
  std::uint16_t data3 = 0;
  std::array<std::uint8_t, 8> data4{};

  static std::optional<Guid> parse(std::string_view text);
  // A random (version 4) GUID.
  static Guid generate();

  bool is_null() const { return *this == Guid{}; }
  std::string str() const;

  friend auto operator<=>(const Guid&, const Guid&) = default;
  friend bool operator==(const Guid&, const Guid&) = default;
};
static_assert(sizeof(Guid) == 16, "Guid must match the Windows GUID layout");

// The text HNS prints for "no GUID", e.g. an endpoint attached to no namespace.
inline constexpr std::string_view kNullGuidText = "00000000-0000-0000-0000-000000000000";

// True when both texts are GUIDs naming the same one (case-insensitive).
bool same_guid(std::string_view a, std::string_view b);

}  // namespace wincni::hns
