#include "wincni/cni/ip.hpp"

#include <algorithm>
#include <cstring>

#include "wincni/cni/error.hpp"

// Parsing follows Go's net.ParseIP / net.ParseCIDR, which is what every
// reference plugin and runtime uses, so an address accepted by one side is
// accepted by the other. IPv4-mapped IPv6 addresses ("::ffff:1.2.3.4") stay
// IPv6: they are never folded into IPv4, so family() always reflects the
// text's syntax, and they print in the RFC 5952 §5 mixed form.

namespace wincni::cni {
namespace {

constexpr size_t kV4Bytes = 4;
constexpr size_t kV6Bytes = 16;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Four decimal parts 0-255, no leading zeros (Go rejects "010.1.1.1" since
// 1.17 because other tools read such parts as octal).
std::optional<std::array<uint8_t, 4>> parse_dotted_quad(std::string_view text) {
  std::array<uint8_t, 4> out{};
  size_t pos = 0;
  for (size_t part = 0; part < 4; ++part) {
    if (part > 0) {
      if (pos >= text.size() || text[pos] != '.') return std::nullopt;
      ++pos;
    }
    size_t start = pos;
    unsigned value = 0;
    while (pos < text.size() && is_digit(text[pos]) && pos - start < 3) {
      value = value * 10 + static_cast<unsigned>(text[pos] - '0');
      ++pos;
    }
    size_t digits = pos - start;
    if (digits == 0 || value > 255) return std::nullopt;
    if (digits > 1 && text[start] == '0') return std::nullopt;
    out[part] = static_cast<uint8_t>(value);
  }
  if (pos != text.size()) return std::nullopt;
  return out;
}

// Hex groups separated by ':', at most one "::" standing for one or more
// zero groups, optionally ending in a dotted quad for the last 32 bits.
std::optional<std::array<uint8_t, 16>> parse_ipv6(std::string_view text) {
  std::array<uint8_t, 16> out{};
  size_t filled = 0;               // bytes written so far
  std::optional<size_t> ellipsis;  // byte offset where "::" sits
  size_t pos = 0;

  if (text.size() >= 2 && text[0] == ':' && text[1] == ':') {
    ellipsis = 0;
    pos = 2;
    if (pos == text.size()) return out;  // "::"
  }

  while (pos < text.size()) {
    // One group, or a trailing dotted quad.
    size_t start = pos;
    unsigned value = 0;
    while (pos < text.size() && hex_value(text[pos]) >= 0 && pos - start < 4) {
      value = value * 16 + static_cast<unsigned>(hex_value(text[pos]));
      ++pos;
    }
    if (pos < text.size() && text[pos] == '.') {
      if (filled + 4 > kV6Bytes) return std::nullopt;
      auto quad = parse_dotted_quad(text.substr(start));
      if (!quad) return std::nullopt;
      std::copy(quad->begin(), quad->end(), out.begin() + static_cast<long>(filled));
      filled += 4;
      pos = text.size();
      break;
    }
    if (pos == start) return std::nullopt;  // empty or non-hex group
    if (filled + 2 > kV6Bytes) return std::nullopt;
    out[filled] = static_cast<uint8_t>(value >> 8);
    out[filled + 1] = static_cast<uint8_t>(value & 0xff);
    filled += 2;

    if (pos == text.size()) break;
    if (text[pos] != ':') return std::nullopt;  // too many hex digits, '%', '/', ...
    ++pos;
    if (pos < text.size() && text[pos] == ':') {
      if (ellipsis) return std::nullopt;
      ellipsis = filled;
      ++pos;
      if (pos == text.size()) break;  // "1::"
    } else if (pos == text.size()) {
      return std::nullopt;  // trailing single ':'
    }
  }

  if (filled < kV6Bytes) {
    if (!ellipsis) return std::nullopt;
    size_t gap = kV6Bytes - filled;
    std::copy_backward(out.begin() + static_cast<long>(*ellipsis), out.begin() + static_cast<long>(filled), out.end());
    std::fill(out.begin() + static_cast<long>(*ellipsis), out.begin() + static_cast<long>(*ellipsis + gap), 0);
  } else if (ellipsis) {
    return std::nullopt;  // "::" must stand for at least one group
  }
  return out;
}

std::string format_dotted_quad(const uint8_t* b) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    if (i > 0) s += '.';
    s += std::to_string(b[i]);
  }
  return s;
}

bool is_v4_mapped(const std::array<uint8_t, 16>& b) {
  for (int i = 0; i < 10; ++i) {
    if (b[i] != 0) return false;
  }
  return b[10] == 0xff && b[11] == 0xff;
}

// RFC 5952: lower case, no leading zeros, the longest run (>= 2) of zero
// groups becomes "::", the first one on ties.
std::string format_ipv6(const std::array<uint8_t, 16>& b) {
  if (is_v4_mapped(b)) return "::ffff:" + format_dotted_quad(&b[12]);

  std::array<unsigned, 8> groups{};
  for (size_t i = 0; i < 8; ++i) groups[i] = (unsigned{b[2 * i]} << 8) | b[2 * i + 1];

  int best_start = -1, best_len = 0;
  for (int i = 0; i < 8;) {
    if (groups[static_cast<size_t>(i)] != 0) {
      ++i;
      continue;
    }
    int j = i;
    while (j < 8 && groups[static_cast<size_t>(j)] == 0) ++j;
    if (j - i > best_len) {
      best_start = i;
      best_len = j - i;
    }
    i = j;
  }
  if (best_len < 2) best_start = -1;

  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < 8; ++i) {
    if (i == best_start) {
      s += "::";
      i += best_len - 1;
      continue;
    }
    if (!s.empty() && s.back() != ':') s += ':';
    unsigned g = groups[static_cast<size_t>(i)];
    bool started = false;
    for (int shift = 12; shift >= 0; shift -= 4) {
      unsigned nibble = (g >> shift) & 0xf;
      if (nibble != 0 || started || shift == 0) {
        s += kHex[nibble];
        started = true;
      }
    }
  }
  return s;
}

// Adds `n` to the big-endian number in the first `size` bytes, modulo
// 2^(8*size).
void add_wrapping(std::array<uint8_t, 16>& bytes, size_t size, uint64_t n) {
  unsigned carry = 0;
  for (size_t i = size; i-- > 0;) {
    unsigned sum = bytes[i] + static_cast<unsigned>(n & 0xff) + carry;
    bytes[i] = static_cast<uint8_t>(sum & 0xff);
    carry = sum >> 8;
    n >>= 8;
    if (n == 0 && carry == 0) break;
  }
}

void subtract_one_wrapping(std::array<uint8_t, 16>& bytes, size_t size) {
  for (size_t i = size; i-- > 0;) {
    if (bytes[i]-- != 0) break;  // no borrow past this byte
  }
}

// Keeps the first `length` bits of an address, then sets (or clears) the rest.
IpAddress with_host_bits(const IpAddress& ip, int length, bool set) {
  std::array<uint8_t, 16> b = ip.bytes();
  size_t size = static_cast<size_t>(ip.bits() / 8);
  for (size_t i = 0; i < size; ++i) {
    int bits_kept = std::clamp(length - static_cast<int>(i) * 8, 0, 8);
    uint8_t network_mask = static_cast<uint8_t>(0xff00u >> bits_kept);
    b[i] = set ? static_cast<uint8_t>(b[i] | ~network_mask) : static_cast<uint8_t>(b[i] & network_mask);
  }
  return IpAddress::from_bytes(ip.family(), b.data());
}

}  // namespace

IpAddress IpAddress::v4(uint32_t host_order) {
  IpAddress ip;
  ip.family_ = IpFamily::V4;
  ip.bytes_[0] = static_cast<uint8_t>(host_order >> 24);
  ip.bytes_[1] = static_cast<uint8_t>(host_order >> 16);
  ip.bytes_[2] = static_cast<uint8_t>(host_order >> 8);
  ip.bytes_[3] = static_cast<uint8_t>(host_order);
  return ip;
}

IpAddress IpAddress::from_bytes(IpFamily family, const uint8_t* bytes) {
  IpAddress ip;
  ip.family_ = family;
  std::memcpy(ip.bytes_.data(), bytes, family == IpFamily::V4 ? kV4Bytes : kV6Bytes);
  return ip;
}

std::optional<IpAddress> IpAddress::parse(std::string_view text) {
  if (text.find(':') != std::string_view::npos) {
    auto bytes = parse_ipv6(text);
    if (!bytes) return std::nullopt;
    return from_bytes(IpFamily::V6, bytes->data());
  }
  auto quad = parse_dotted_quad(text);
  if (!quad) return std::nullopt;
  return from_bytes(IpFamily::V4, quad->data());
}

std::string IpAddress::str() const { return is_v4() ? format_dotted_quad(bytes_.data()) : format_ipv6(bytes_); }

IpAddress IpAddress::next() const { return plus(1); }

IpAddress IpAddress::previous() const {
  IpAddress ip = *this;
  subtract_one_wrapping(ip.bytes_, static_cast<size_t>(bits() / 8));
  return ip;
}

IpAddress IpAddress::plus(uint64_t n) const {
  IpAddress ip = *this;
  add_wrapping(ip.bytes_, static_cast<size_t>(bits() / 8), n);
  return ip;
}

bool IpAddress::is_zero() const {
  return std::all_of(bytes_.begin(), bytes_.end(), [](uint8_t b) { return b == 0; });
}

IpPrefix::IpPrefix(IpAddress address, int length) : address_(address), length_(length) {
  if (length < 0 || length > address.bits()) {
    throw Error(
        kInvalidNetworkConfig, "invalid prefix length",
        std::to_string(length) + " is not within 0-" + std::to_string(address.bits()) + " for " + address.str());
  }
}

std::optional<IpPrefix> IpPrefix::parse(std::string_view text) {
  size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  auto address = IpAddress::parse(text.substr(0, slash));
  if (!address) return std::nullopt;

  // Decimal digits only, as Go's ParseCIDR (which also tolerates leading
  // zeros: "/024" is 24).
  std::string_view digits = text.substr(slash + 1);
  if (digits.empty()) return std::nullopt;
  int length = 0;
  for (char c : digits) {
    if (!is_digit(c)) return std::nullopt;
    length = length * 10 + (c - '0');
    if (length > address->bits()) return std::nullopt;
  }
  return IpPrefix(*address, length);
}

IpPrefix IpPrefix::network() const { return IpPrefix(first(), length_); }

bool IpPrefix::is_network() const { return first() == address_; }

IpAddress IpPrefix::first() const { return with_host_bits(address_, length_, false); }

IpAddress IpPrefix::last() const { return with_host_bits(address_, length_, true); }

IpAddress IpPrefix::mask() const {
  IpAddress all_ones = with_host_bits(IpAddress::from_bytes(family(), std::array<uint8_t, 16>{}.data()), 0, true);
  return with_host_bits(all_ones, length_, false);
}

bool IpPrefix::contains(const IpAddress& ip) const {
  return ip.family() == family() && with_host_bits(ip, length_, false) == first();
}

bool IpPrefix::overlaps(const IpPrefix& other) const {
  if (other.family() != family()) return false;
  // Two prefixes overlap exactly when the shorter one contains the other.
  return length_ <= other.length_ ? contains(other.address_) : other.contains(address_);
}

std::string IpPrefix::str() const { return address_.str() + "/" + std::to_string(length_); }

}  // namespace wincni::cni
