#pragma once
// MAC addresses as HNS writes them: "00-15-5D-0A-F4-05", upper-case, dashes.
// Input may use ':' or '-' and either case (win-overlay sends lower-case).

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wincni::hns {

class MacAddress {
 public:
  MacAddress() = default;
  static std::optional<MacAddress> parse(std::string_view text);
  static MacAddress from_value(std::uint64_t value);  // low 48 bits

  std::uint64_t value() const;
  std::string str() const;

  friend auto operator<=>(const MacAddress&, const MacAddress&) = default;
  friend bool operator==(const MacAddress&, const MacAddress&) = default;

 private:
  std::array<std::uint8_t, 6> bytes_{};
};

}  // namespace wincni::hns
