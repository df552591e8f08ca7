#pragma once
// Literal addresses for tests: ip("10.0.0.1"), prefix("10.0.0.0/8").

#include "wincni/cni/ip.hpp"

namespace wincni::test {

inline cni::IpAddress ip(const char* text) { return cni::IpAddress::parse(text).value(); }
inline cni::IpPrefix prefix(const char* text) { return cni::IpPrefix::parse(text).value(); }

}  // namespace wincni::test
