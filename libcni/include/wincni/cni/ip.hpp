#pragma once
// IPv4 and IPv6 addresses and prefixes. Every module uses these instead of
// strings: parsing is strict, formatting is canonical (RFC 5952 for IPv6).

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wincni::cni {

enum class IpFamily { V4, V6 };

class IpAddress {
 public:
  IpAddress() = default;  // 0.0.0.0
  static IpAddress v4(uint32_t host_order);
  static IpAddress from_bytes(IpFamily family, const uint8_t* bytes);

  // Strict: "10.0.0.1", "fd00::1"; no prefix, no brackets, no zone.
  // An IPv4-mapped IPv6 text ("::ffff:1.2.3.4") parses as that IPv6 address.
  static std::optional<IpAddress> parse(std::string_view text);

  IpFamily family() const { return family_; }
  bool is_v4() const { return family_ == IpFamily::V4; }
  int bits() const { return is_v4() ? 32 : 128; }
  // Network-order bytes; 4 or 16 of them are meaningful.
  const std::array<uint8_t, 16>& bytes() const { return bytes_; }

  std::string str() const;
  // Wrapping neighbours within the family (255.255.255.255 + 1 = 0.0.0.0).
  IpAddress next() const;
  IpAddress previous() const;
  // Same family only; used for "a + n" in range arithmetic.
  IpAddress plus(uint64_t n) const;
  bool is_zero() const;

  friend std::strong_ordering operator<=>(const IpAddress&, const IpAddress&) = default;
  friend bool operator==(const IpAddress&, const IpAddress&) = default;

 private:
  IpFamily family_ = IpFamily::V4;
  std::array<uint8_t, 16> bytes_{};
};

// An address with a prefix length. The address may carry host bits
// ("10.1.2.5/24", as in CNI results); network() clears them.
class IpPrefix {
 public:
  IpPrefix() = default;
  // Throws cni::Error (code 7) when length is outside 0..address.bits().
  IpPrefix(IpAddress address, int length);
  // "a/len"; length within the family's bits. Nothing else accepted.
  static std::optional<IpPrefix> parse(std::string_view text);

  const IpAddress& address() const { return address_; }
  int length() const { return length_; }
  IpFamily family() const { return address_.family(); }

  IpPrefix network() const;  // host bits cleared
  bool is_network() const;   // no host bits set
  IpAddress first() const;   // network address
  IpAddress last() const;    // broadcast (v4) / last address (v6)
  IpAddress mask() const;    // e.g. 255.255.255.0
  bool contains(const IpAddress& ip) const;
  bool overlaps(const IpPrefix& other) const;
  std::string str() const;  // "address/len", address kept as is

  friend bool operator==(const IpPrefix&, const IpPrefix&) = default;

 private:
  IpAddress address_;
  int length_ = 0;
};

}  // namespace wincni::cni
