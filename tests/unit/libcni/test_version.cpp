#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cni_test_helpers.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/version.hpp"

using namespace wincni::cni;
using wincni::test::thrown_error;

TEST_CASE("libcni knows every spec version, oldest first") {
  CHECK(known_versions() == std::vector<std::string>{"0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"});
  CHECK(kCurrentVersion == "1.1.0");
  CHECK(is_known_version("0.3.1"));
  CHECK_FALSE(is_known_version("0.3.2"));
  CHECK_FALSE(is_known_version(""));
}

TEST_CASE("versions parse like Go's ParseVersion") {
  CHECK(parse_version("1.1.0") == SpecVersion{1, 1, 0});
  CHECK(parse_version("") == SpecVersion{0, 1, 0});  // no version declared
  CHECK(parse_version("1") == SpecVersion{1, 0, 0});
  CHECK(parse_version("0.4") == SpecVersion{0, 4, 0});
  CHECK(parse_version("+1.02.3") == SpecVersion{1, 2, 3});  // strconv.Atoi takes a sign and leading zeros
  CHECK(parse_version("-1") == SpecVersion{-1, 0, 0});
  // Go's int is 64 bits wide: a part beyond 32 bits is still a number.
  CHECK(parse_version("1.0.99999999999") == SpecVersion{1, 0, 99999999999});
  CHECK(parse_version("-9223372036854775808") == SpecVersion{INT64_MIN, 0, 0});

  SUBCASE("malformed versions are decoding failures with Go's wording") {
    const Error minor = thrown_error([] { parse_version("1.x"); });
    CHECK(minor.code() == kDecodingFailure);
    CHECK(minor.msg() == R"(failed to convert minor version part "x": strconv.Atoi: parsing "x": invalid syntax)");
    const Error parts = thrown_error([] { parse_version("1.2.3.4"); });
    CHECK(parts.code() == kDecodingFailure);
    CHECK(parts.msg() == R"(invalid version "1.2.3.4": too many parts)");
    CHECK(thrown_error([] { parse_version("a"); }).code() == kDecodingFailure);
    CHECK(thrown_error([] { parse_version("1..0"); }).code() == kDecodingFailure);
    CHECK(thrown_error([] { parse_version("1.0."); }).code() == kDecodingFailure);
    CHECK(thrown_error([] { parse_version("1.+-1"); }).code() == kDecodingFailure);
    const Error range = thrown_error([] { parse_version("1.0.9223372036854775808"); });
    CHECK(range.code() == kDecodingFailure);
    CHECK(range.msg() == R"(failed to convert micro version part "9223372036854775808": strconv.Atoi: parsing )"
                         R"("9223372036854775808": value out of range)");
  }
}

TEST_CASE("versions compare numerically, not as text") {
  CHECK(version_at_least("1.1.0", "1.1.0"));
  CHECK(version_at_least("1.10.0", "1.9.0"));
  CHECK(version_at_least("0.4.0", "0.3.1"));
  CHECK_FALSE(version_at_least("0.3.1", "0.4.0"));
  CHECK_FALSE(version_at_least("", "0.2.0"));  // "" is 0.1.0
  CHECK(version_at_least("1", "0.4.0"));
  CHECK(thrown_error([] { version_at_least("1.x", "0.4.0"); }).code() == kDecodingFailure);
}

TEST_CASE("reconciliation wants the config version exactly") {
  const std::vector<std::string> supported{"0.3.1", "0.4.0", "1.0.0"};
  CHECK_NOTHROW(reconcile_version("0.4.0", supported));
  const Error e = thrown_error([&] { reconcile_version("1.1.0", supported); });
  CHECK(e.code() == kIncompatibleVersion);
  CHECK(e.msg() == "incompatible CNI versions");
  CHECK(e.details() == R"(config is "1.1.0", plugin supports ["0.3.1" "0.4.0" "1.0.0"])");
  // "0.4" means 0.4.0 to the parser, but reconciliation is by exact string, as in Go.
  CHECK(thrown_error([&] { reconcile_version("0.4", supported); }).code() == kIncompatibleVersion);
}

TEST_CASE("VERSION output is compact JSON with the current version and a newline") {
  const std::string text = encode_version_info({"0.4.0", "1.0.0"});
  CHECK(text == "{\"cniVersion\":\"1.1.0\",\"supportedVersions\":[\"0.4.0\",\"1.0.0\"]}\n");
  CHECK(nlohmann::json::parse(text)["supportedVersions"].size() == 2);
}

TEST_CASE("Go's %q list formatting escapes what needs escaping") {
  CHECK(go_quoted_list({}) == "[]");
  CHECK(go_quoted_list({"a", "b c"}) == R"(["a" "b c"])");
  CHECK(go_quoted_list({"q\"\\\n\x01"}) == R"(["q\"\\\n\x01"])");
}
