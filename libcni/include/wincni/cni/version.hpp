#pragma once
// CNI spec versions: the ones libcni speaks, how they compare, and the
// reconciliation between a config's cniVersion and what a plugin supports.

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wincni::cni {

// The newest spec libcni implements; VERSION reports it as "cniVersion".
inline constexpr std::string_view kCurrentVersion = "1.1.0";

// Every spec version libcni can read and write, oldest first.
const std::vector<std::string>& known_versions();
bool is_known_version(std::string_view version);

// major.minor.patch, parsed the way Go's version.ParseVersion does: "" means
// 0.1.0, missing parts are 0 ("1" is 1.0.0), more than three parts or a
// part that is not a (64-bit, like Go's int) integer is an error.
struct SpecVersion {
  int64_t major = 0, minor = 0, patch = 0;
  friend auto operator<=>(const SpecVersion&, const SpecVersion&) = default;
};

// Throws Error 6 (kDecodingFailure) with Go's wording when `text` is malformed.
SpecVersion parse_version(std::string_view text);
// version >= minimum; throws Error 6 when either is malformed.
bool version_at_least(std::string_view version, std::string_view minimum);

// The config's version must appear exactly in `supported`; throws Error 1
// "incompatible CNI versions" with details `config is "X", plugin supports
// ["a" "b"]` (Go's %q formatting) otherwise.
void reconcile_version(std::string_view config_version, const std::vector<std::string>& supported);

// VERSION's stdout: {"cniVersion":"1.1.0","supportedVersions":[...]} and a
// newline. The input cniVersion is not echoed: Go's skel does not either.
std::string encode_version_info(const std::vector<std::string>& supported);

// Go's %q of a []string: ["a" "b"], used in messages that runtimes and users
// compare with the reference plugins' output.
std::string go_quoted_list(const std::vector<std::string>& items);

}  // namespace wincni::cni
