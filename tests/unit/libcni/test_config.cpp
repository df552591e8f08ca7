#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cni_test_helpers.hpp"
#include "wincni/cni/config.hpp"
#include "wincni/cni/error.hpp"

using namespace wincni::cni;
using wincni::test::thrown_error;

namespace {

Error parse_error(std::string_view text) {
  return thrown_error([&] { NetConf::parse(text); });
}

}  // namespace

TEST_CASE("the generic keys are read, case-insensitively") {
  const NetConf conf = NetConf::parse(R"({
    "CNIVersion": "1.0.0", "Name": "cbr0", "TYPE": "win-bridge",
    "ipam": {"Type": "host-local", "subnet": "10.0.0.0/24"},
    "dns": {"nameservers": ["10.0.0.10"]},
    "runtimeConfig": {"portMappings": []},
    "capabilities": {"portMappings": true},
    "args": {"cni": {"ips": ["10.0.0.5"]}},
    "custom": 42
  })");
  CHECK(conf.cni_version() == "1.0.0");
  CHECK(conf.name() == "cbr0");
  CHECK(conf.type() == "win-bridge");
  CHECK(conf.ipam_type() == "host-local");
  CHECK(conf.ipam()["subnet"] == "10.0.0.0/24");
  CHECK(conf.dns()["nameservers"][0] == "10.0.0.10");
  CHECK(conf.runtime_config().contains("portMappings"));
  CHECK(conf.capabilities()["portMappings"] == true);
  CHECK(conf.args()["cni"]["ips"][0] == "10.0.0.5");
  REQUIRE(conf.find("CUSTOM") != nullptr);
  CHECK(*conf.find("CUSTOM") == 42);
  CHECK(conf.raw()["custom"] == 42);
  CHECK(conf.prev_result_json().is_null());
  CHECK_FALSE(conf.prev_result().has_value());
}

TEST_CASE("absent optional keys read as null or empty") {
  const NetConf conf = NetConf::parse(R"({"name": "n"})");
  CHECK(conf.cni_version() == "0.1.0");  // no version declared
  CHECK(conf.type() == "");
  CHECK(conf.ipam_type() == "");
  CHECK(conf.ipam().is_null());
  CHECK(conf.dns().is_null());
  CHECK(conf.args().is_null());
  CHECK(conf.runtime_config().is_null());
  CHECK(conf.capabilities().is_null());
  CHECK(conf.valid_attachments().empty());
  CHECK(NetConf::parse(R"({"name": "n", "cniVersion": ""})").cni_version() == "0.1.0");
  CHECK(NetConf::parse(R"({"name": "n", "cniVersion": null})").cni_version() == "0.1.0");
  CHECK(NetConf::parse(R"({"name": "n", "ipam": {}})").ipam_type() == "");
}

TEST_CASE("stdin that is not JSON, or not an object, is a decoding failure") {
  for (const char* text : {"", "{", "not json", R"({"name":"n"} trailing)", "[1]", "\"str\"", "42"}) {
    CAPTURE(text);
    const Error e = parse_error(text);
    CHECK(e.code() == kDecodingFailure);
    CHECK(e.msg().rfind("error unmarshall network config: ", 0) == 0);
  }
}

TEST_CASE("a config nested deeper than 1000 levels is a decoding failure") {
  const auto nested = [](int levels, char open, char close) {
    return R"({"name":"n","x":)" + std::string(static_cast<size_t>(levels - 1), open) +
           std::string(static_cast<size_t>(levels - 1), close) + "}";
  };
  CHECK_NOTHROW(NetConf::parse(nested(1000, '[', ']')));
  const Error arrays = parse_error(nested(1001, '[', ']'));
  CHECK(arrays.code() == kDecodingFailure);
  CHECK(arrays.msg() == "error unmarshall network config: invalid character '[' exceeded max depth");
  // Brackets inside strings, escaped quotes included, are not nesting.
  CHECK_NOTHROW(NetConf::parse(R"({"name":"n","x":")" + std::string(5000, '[') + R"(\"{{{{"})"));
  // Far beyond: refused before anything recurses over it.
  CHECK(parse_error(nested(1000000, '[', ']')).code() == kDecodingFailure);
}

TEST_CASE("the network name is required and restricted") {
  CHECK(parse_error("{}").code() == kInvalidNetworkConfig);
  CHECK(parse_error("{}").msg() == "missing network name");
  CHECK(parse_error("null").msg() == "missing network name");  // Go decodes null as an empty config
  CHECK(parse_error(R"({"name": ""})").msg() == "missing network name");
  CHECK(parse_error(R"({"name": null})").msg() == "missing network name");
  const Error bad = parse_error(R"({"name": "te%%st"})");
  CHECK(bad.code() == kInvalidNetworkConfig);
  CHECK(bad.msg() == "invalid characters found in network name");
  CHECK(bad.details() == "te%%st");
  CHECK(parse_error(R"({"name": 3})").code() == kDecodingFailure);
}

TEST_CASE("generic keys with the wrong JSON type are decoding failures") {
  for (const char* text :
       {R"({"name":"n","cniVersion":3})", R"({"name":"n","type":[]})", R"({"name":"n","ipam":"x"})",
        R"({"name":"n","ipam":{"type":1}})", R"({"name":"n","dns":[]})", R"({"name":"n","runtimeConfig":1})",
        R"({"name":"n","capabilities":true})", R"({"name":"n","prevResult":"x"})", R"({"name":"n","args":[]})",
        R"({"name":"n","cni.dev/valid-attachments":{}})", R"({"name":"n","cni.dev/valid-attachments":[1]})",
        R"({"name":"n","cni.dev/attachments":[{"containerID":1}]})"}) {
    CAPTURE(text);
    CHECK(parse_error(text).code() == kDecodingFailure);
  }
}

TEST_CASE("parse_network_config only checks JSON and name") {
  CHECK(parse_network_config(R"({"name":"n","cniVersion":3})")["cniVersion"] == 3);
  CHECK_THROWS_AS(NetConf::from_json(parse_network_config(R"({"name":"n","cniVersion":3})")), Error);
  CHECK(NetConf::from_json(nlohmann::json{{"name", "n"}, {"cniVersion", "0.4.0"}}).cni_version() == "0.4.0");
}

TEST_CASE("GC attachments come from the current key, else the legacy one") {
  const NetConf current = NetConf::parse(R"({"name":"n","cniVersion":"1.1.0",
    "cni.dev/valid-attachments":[{"containerID":"c1","ifname":"eth0"},{"containerID":"c2","ifname":"eth1"}],
    "cni.dev/attachments":[{"containerID":"legacy","ifname":"eth9"}]})");
  REQUIRE(current.valid_attachments().size() == 2);
  CHECK(current.valid_attachments()[1].container_id == "c2");
  CHECK(current.valid_attachments()[1].ifname == "eth1");

  const NetConf legacy = NetConf::parse(R"({"name":"n","cni.dev/attachments":[{"containerID":"c","ifname":"eth0"}]})");
  REQUIRE(legacy.valid_attachments().size() == 1);
  CHECK(legacy.valid_attachments()[0].container_id == "c");

  CHECK(NetConf::parse(R"({"name":"n","cni.dev/valid-attachments":[]})").valid_attachments().empty());
  CHECK(NetConf::parse(R"({"name":"n","cni.dev/valid-attachments":null})").valid_attachments().empty());
}

TEST_CASE("prevResult is decoded in the config's version family") {
  const char* prev_1_0 = R"({"cniVersion":"1.0.0","ips":[{"address":"10.0.0.5/24","gateway":"10.0.0.1"}]})";
  const NetConf conf =
      NetConf::parse(std::string(R"({"name":"n","cniVersion":"1.1.0","prevResult":)") + prev_1_0 + "}");
  CHECK(conf.prev_result_json()["cniVersion"] == "1.0.0");
  const auto prev = conf.prev_result();
  REQUIRE(prev.has_value());
  REQUIRE(prev->ips.size() == 1);
  CHECK(prev->ips[0].address.str() == "10.0.0.5/24");

  SUBCASE("without its own cniVersion it takes the config's") {
    const NetConf unversioned = NetConf::parse(
        R"({"name":"n","cniVersion":"0.4.0","prevResult":{"ips":[{"version":"4","address":"10.0.0.5/24"}]}})");
    REQUIRE(unversioned.prev_result().has_value());
    CHECK(unversioned.prev_result()->ips.size() == 1);
  }

  SUBCASE("a result from another family is refused") {
    const NetConf mixed = NetConf::parse(
        R"({"name":"n","cniVersion":"1.1.0","prevResult":{"cniVersion":"0.2.0","ip4":{"ip":"10.0.0.5/24"}}})");
    const Error e = thrown_error([&] { mixed.prev_result(); });
    CHECK(e.code() == kDecodingFailure);
    CHECK(e.msg().rfind("could not parse prevResult: ", 0) == 0);
    CHECK(e.msg().find("0.2.0") != std::string::npos);
  }
}
