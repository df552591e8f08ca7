// The typed reader of config fields: keys in any case, null as absent, type
// errors naming the field by its path, integer bounds, addresses, prefixes,
// and the error code and wording a plugin chooses.

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "cni_test_helpers.hpp"
#include "wincni/cni/config_fields.hpp"
#include "wincni/cni/error.hpp"

using wincni::cni::Error;
using wincni::cni::FieldReader;
using wincni::test::thrown_error;
using Json = nlohmann::json;

namespace {

constexpr FieldReader fields;

Json parse(std::string_view text) { return Json::parse(text); }

// The message the default reader gives for `read`.
template <typename Read>
std::string message_of(Read&& read) {
  const Error e = thrown_error(std::forward<Read>(read));
  CHECK(e.code() == wincni::cni::kInvalidNetworkConfig);
  return e.msg();
}

}  // namespace

TEST_CASE("keys match in any ASCII case, the exact spelling first") {
  const Json j = parse(R"({"HostPort": 1, "hostPort": 2, "MASTER": "eth0"})");
  CHECK(fields.read_integer(j, "hostPort", "", 0, 9) == 2);
  CHECK(fields.read_integer(j, "HOSTPORT", "", 0, 9) == 1);
  CHECK(fields.read_string(j, "master", "") == "eth0");
  CHECK(FieldReader::find(j, "Master") == &j["MASTER"]);
}

TEST_CASE("absent and null fields are absent; so is every key of a non-object") {
  const Json j = parse(R"({"s": null, "b": null, "i": null, "n": null, "a": null, "o": null, "ip": null, "p": null})");
  for (const char* key : {"s", "missing"}) {
    CAPTURE(key);
    CHECK(FieldReader::find(j, key) == nullptr);
    CHECK_FALSE(fields.read_string(j, key, "x").has_value());
    CHECK_FALSE(fields.read_bool(j, key, "x").has_value());
    CHECK_FALSE(fields.read_integer(j, key, "x", 0, 1).has_value());
    CHECK_FALSE(fields.read_number(j, key, "x").has_value());
    CHECK_FALSE(fields.read_address(j, key, "x").has_value());
    CHECK_FALSE(fields.read_prefix(j, key, "x").has_value());
    CHECK(fields.read_array(j, key, "x") == nullptr);
    CHECK(fields.read_object(j, key, "x") == nullptr);
  }
  for (const Json& not_an_object : {Json(), Json::array({1}), Json("s"), Json(3)}) {
    CHECK(FieldReader::find(not_an_object, "s") == nullptr);
    CHECK_FALSE(fields.read_string(not_an_object, "s", "").has_value());
  }
}

TEST_CASE("values of the right type are read as they are") {
  const Json j = parse(R"({"s": "text", "t": true, "f": false, "i": -7, "n": 2.5, "a": [1], "o": {"k": 1},
                           "ip": "2001:db8::1", "p": "10.1.2.3/8"})");
  CHECK(fields.read_string(j, "s", "") == "text");
  CHECK(fields.read_bool(j, "t", "") == true);
  CHECK(fields.read_bool(j, "f", "") == false);
  CHECK(fields.read_integer(j, "i", "", -10, 10) == -7);
  CHECK(fields.read_number(j, "n", "") == 2.5);
  CHECK(fields.read_number(j, "i", "") == -7.0);
  CHECK(fields.read_array(j, "a", "") == &j["a"]);
  CHECK(fields.read_object(j, "o", "") == &j["o"]);
  CHECK(fields.read_address(j, "ip", "")->str() == "2001:db8::1");
  CHECK(fields.read_prefix(j, "p", "")->str() == "10.1.2.3/8");  // host bits kept
}

TEST_CASE("a value of another type is refused, naming the field and both types") {
  const Json j = parse(R"({"s": 5, "b": "true", "i": "2", "n": [], "a": {}, "o": [], "ip": 1, "p": false})");
  CHECK(message_of([&] { fields.read_string(j, "s", "ipam"); }) == "ipam.s: must be a string, not number");
  CHECK(message_of([&] { fields.read_bool(j, "b", ""); }) == "b: must be true or false, not string");
  CHECK(message_of([&] { fields.read_integer(j, "i", "", 0, 9); }) == "i: must be a number, not string");
  CHECK(message_of([&] { fields.read_number(j, "n", ""); }) == "n: must be a number, not array");
  CHECK(message_of([&] { fields.read_array(j, "a", ""); }) == "a: must be an array, not object");
  CHECK(message_of([&] { fields.read_object(j, "o", ""); }) == "o: must be an object, not array");
  CHECK(message_of([&] { fields.read_address(j, "ip", ""); }) == "ip: must be a string, not number");
  CHECK(message_of([&] { fields.read_prefix(j, "p", ""); }) == "p: must be a string, not boolean");
}

TEST_CASE("elements without a key of their own are checked the same way") {
  const Json list = parse(R"(["a", 1, [], {}])");
  CHECK(fields.expect_string(list[0], "dns.servers[0]") == "a");
  CHECK(message_of([&] { fields.expect_string(list[1], "dns.servers[1]"); }) ==
        "dns.servers[1]: must be a string, not number");
  CHECK(&fields.expect_array(list[2], "x") == &list[2]);
  CHECK(message_of([&] { fields.expect_array(list[3], "x[3]"); }) == "x[3]: must be an array, not object");
  CHECK(&fields.expect_object(list[3], "x") == &list[3]);
  CHECK(message_of([&] { fields.expect_object(list[0], "x[0]"); }) == "x[0]: must be an object, not string");
}

TEST_CASE("integers: bounds, whole floats, fractions and numbers past int64") {
  const Json j = parse(R"({"zero": 0, "max": 65535, "over": 65536, "under": -1, "whole": 2.0, "half": 2.5,
                           "huge": 18446744073709551615, "hugeFloat": 1e300, "tinyFloat": -1e300,
                           "twoTo63": 9223372036854775808.0, "negative": -9223372036854775808})");
  const auto port = [&](const char* key) { return fields.read_integer(j, key, "runtimeConfig", 0, 65535); };
  CHECK(port("zero") == 0);
  CHECK(port("max") == 65535);
  CHECK(port("whole") == 2);
  CHECK(message_of([&] { port("over"); }) == "runtimeConfig.over: 65536 is not in 0-65535");
  CHECK(message_of([&] { port("under"); }) == "runtimeConfig.under: -1 is not in 0-65535");
  CHECK(message_of([&] { port("half"); }) == "runtimeConfig.half: 2.5 is not a whole number");
  CHECK(message_of([&] { port("huge"); }) == "runtimeConfig.huge: 18446744073709551615 is not in 0-65535");
  CHECK(message_of([&] { port("hugeFloat"); }) == "runtimeConfig.hugeFloat: 1e+300 is not in 0-65535");
  CHECK(message_of([&] { port("tinyFloat"); }) == "runtimeConfig.tinyFloat: -1e+300 is not in 0-65535");

  constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
  constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
  CHECK(fields.read_integer(j, "negative", "", kMin, kMax) == kMin);
  CHECK(message_of([&] { fields.read_integer(j, "huge", "", kMin, kMax); }).find("is not in") != std::string::npos);
  CHECK(message_of([&] { fields.read_integer(j, "twoTo63", "", kMin, kMax); }).find("is not in") != std::string::npos);
  // A negative maximum: no unsigned value fits, however it would wrap.
  CHECK(message_of([&] { fields.read_integer(j, "huge", "", -5, -1); }) ==
        "huge: 18446744073709551615 is not in -5--1");
}

TEST_CASE("addresses and prefixes: empty is absent, malformed text is named") {
  const Json j = parse(R"({"empty": "", "bad": "10.0.0.300", "noLength": "10.0.0.0", "badLength": "10.0.0.0/33",
                           "v4": "10.0.0.1", "v6": "fd00::/64"})");
  CHECK_FALSE(fields.read_address(j, "empty", "").has_value());
  CHECK_FALSE(fields.read_prefix(j, "empty", "").has_value());
  CHECK(fields.read_address(j, "v4", "")->str() == "10.0.0.1");
  CHECK(fields.read_prefix(j, "v6", "")->str() == "fd00::/64");
  CHECK(message_of([&] { fields.read_address(j, "bad", "m[0]"); }) == "m[0].bad: \"10.0.0.300\" is not an IP address");
  CHECK(message_of([&] { fields.read_address(j, "v6", ""); }) == "v6: \"fd00::/64\" is not an IP address");
  CHECK(message_of([&] { fields.read_prefix(j, "noLength", ""); }) ==
        "noLength: \"10.0.0.0\" is not an IP prefix (address/length)");
  CHECK(message_of([&] { fields.read_prefix(j, "badLength", ""); }) ==
        "badLength: \"10.0.0.0/33\" is not an IP prefix (address/length)");
}

TEST_CASE("paths: joined with dots, indexed with brackets, bare at the top level") {
  CHECK(FieldReader::join_path("", "apiVersion") == "apiVersion");
  CHECK(FieldReader::join_path("runtimeConfig", "portMappings") == "runtimeConfig.portMappings");
  CHECK(FieldReader::index_path("runtimeConfig.portMappings", 1) == "runtimeConfig.portMappings[1]");
  CHECK(FieldReader::join_path(FieldReader::index_path("ipam.ranges", 0), "subnet") == "ipam.ranges[0].subnet");

  const Json config = parse(R"({"runtimeConfig": {"portMappings": [{}, {"protocol": 6}]}})");
  const Json& mappings =
      *fields.read_array(*fields.read_object(config, "runtimeConfig", ""), "portMappings", "runtimeConfig");
  const std::string entry = FieldReader::index_path("runtimeConfig.portMappings", 1);
  CHECK(message_of([&] { fields.read_string(mappings[1], "protocol", entry); }) ==
        "runtimeConfig.portMappings[1].protocol: must be a string, not number");
  CHECK(message_of([&] { fields.fail(entry, "is required"); }) == "runtimeConfig.portMappings[1]: is required");
}

TEST_CASE("the error code is the reader's, for every kind of failure") {
  constexpr FieldReader decoding(wincni::cni::kDecodingFailure);
  static_assert(decoding.code() == wincni::cni::kDecodingFailure);
  static_assert(FieldReader().code() == wincni::cni::kInvalidNetworkConfig);
  const Json j = parse(R"({"s": 1, "i": 9, "f": 0.5, "ip": "x", "p": "y"})");
  const auto code_of = [](auto&& read) { return thrown_error(read).code(); };
  CHECK(code_of([&] { decoding.read_string(j, "s", ""); }) == 6);
  CHECK(code_of([&] { decoding.read_integer(j, "i", "", 0, 1); }) == 6);
  CHECK(code_of([&] { decoding.read_integer(j, "f", "", 0, 1); }) == 6);
  CHECK(code_of([&] { decoding.read_address(j, "ip", ""); }) == 6);
  CHECK(code_of([&] { decoding.read_prefix(j, "p", ""); }) == 6);
  CHECK(code_of([&] { decoding.expect_object(j["s"], "s"); }) == 6);
  CHECK(code_of([&] { decoding.fail("x", "y"); }) == 6);
  CHECK(code_of([&] { FieldReader(120).fail("x", "y"); }) == 120);
}

TEST_CASE("the 'expected' wording names only the type wanted") {
  constexpr FieldReader reader(wincni::cni::kDecodingFailure, FieldReader::Mismatch::kExpected);
  const Json j = parse(R"({"dataDir": false, "ranges": {}, "ips": [5], "ok": "x"})");
  const auto message = [](auto&& read) { return thrown_error(read).msg(); };
  CHECK(message([&] { reader.read_string(j, "dataDir", "ipam"); }) == "ipam.dataDir: expected a string");
  CHECK(message([&] { reader.read_array(j, "ranges", "ipam"); }) == "ipam.ranges: expected an array");
  CHECK(message([&] { reader.read_object(j, "ips", "args.cni"); }) == "args.cni.ips: expected an object");
  CHECK(message([&] { reader.expect_string(j["ips"][0], "runtimeConfig.ips[0]"); }) ==
        "runtimeConfig.ips[0]: expected a string");
  CHECK(reader.read_string(j, "ok", "") == "x");
}
