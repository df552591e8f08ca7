#pragma once
// Addresses and prefixes written as text in the tests; a typo fails the test.

#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "wincni/cni/ip.hpp"

namespace wincni::test {

inline cni::IpAddress ip(std::string_view text) {
  auto parsed = cni::IpAddress::parse(text);
  REQUIRE_MESSAGE(parsed.has_value(), "not an address: ", std::string(text));
  return *parsed;
}

inline cni::IpPrefix prefix(std::string_view text) {
  auto parsed = cni::IpPrefix::parse(text);
  REQUIRE_MESSAGE(parsed.has_value(), "not a prefix: ", std::string(text));
  return *parsed;
}

}  // namespace wincni::test
