#pragma once
// Helpers shared by the host-local unit tests.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "cni_test_helpers.hpp"
#include "range_set.hpp"
#include "scratch_dir.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/ip.hpp"

namespace hostlocal_test {

inline wincni::cni::IpAddress ip(std::string_view text) {
  auto parsed = wincni::cni::IpAddress::parse(text);
  REQUIRE_MESSAGE(parsed.has_value(), "not an address: ", std::string(text));
  return *parsed;
}

inline wincni::cni::IpPrefix prefix(std::string_view text) {
  auto parsed = wincni::cni::IpPrefix::parse(text);
  REQUIRE_MESSAGE(parsed.has_value(), "not a prefix: ", std::string(text));
  return *parsed;
}

// A range with only its subnet given.
inline wincni::hostlocal::RangeSpec subnet(std::string_view text) { return {prefix(text), {}, {}, {}}; }

using wincni::test::thrown_error;

using TempDir = wincni::test::ScratchDir;

inline std::string path_text(const std::filesystem::path& path) { return path.generic_string(); }

inline std::optional<std::string> read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

inline void write_text(const std::filesystem::path& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  REQUIRE(out.good());
  out << content;
}

}  // namespace hostlocal_test
