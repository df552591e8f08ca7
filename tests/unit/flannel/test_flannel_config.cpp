// flannel's config: the reference's defaults and delegate checks, and the
// keys of the policy generator.

#include <doctest/doctest.h>

#include "addresses.hpp"
#include "fixture_configs.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/flannel/flannel_config.hpp"

using namespace wincni;
using flannel::FlannelConfig;
using flannel::read_flannel_config;

namespace {

FlannelConfig read(const char* text) { return read_flannel_config(cni::NetConf::parse(text)); }

std::string error_of(const char* text) {
  try {
    read(text);
  } catch (const cni::Error& e) {
    return std::to_string(e.code()) + " " + e.msg();
  }
  return "";
}

}  // namespace

TEST_CASE("omitted paths take the reference's defaults; given ones are honoured") {
  const FlannelConfig defaults = read(R"({"name":"cni-flannel","type":"flannel"})");
#ifdef _WIN32
  // Root-relative: on the current drive (C:\run\flannel\subnet.env).
  CHECK(defaults.subnet_file == "\\run\\flannel\\subnet.env");
  CHECK(defaults.data_dir == "\\var\\lib\\cni\\flannel");
#else
  CHECK(defaults.subnet_file == "/run/flannel/subnet.env");
  CHECK(defaults.data_dir == "/var/lib/cni/flannel");
#endif
  CHECK(defaults.subnet_wait == std::chrono::seconds(10));
  CHECK(defaults.delegate == nlohmann::json::object());
  CHECK(defaults.service_networks.empty());

#ifdef _WIN32
  const FlannelConfig given =
      read(R"({"name":"n","type":"flannel","subnetFile":"C:\\run\\flannel\\subnet.env","dataDir":"D:\\flannel",)"
           R"("subnetFileWaitSeconds":0})");
  CHECK(given.subnet_file == "C:\\run\\flannel\\subnet.env");
  CHECK(given.data_dir == "D:\\flannel");
#else
  const FlannelConfig given =
      read(R"({"name":"n","type":"flannel","subnetFile":"/etc/flannel/subnet.env","dataDir":"/srv/flannel",)"
           R"("subnetFileWaitSeconds":0})");
  CHECK(given.subnet_file == "/etc/flannel/subnet.env");
  CHECK(given.data_dir == "/srv/flannel");
#endif
  CHECK(given.subnet_wait == std::chrono::seconds(0));
}

TEST_CASE("a relative dataDir is refused: the runtime's working directory is no place for pods' configs") {
  for (const char* dir : {
           "flannel", "./flannel", "../var/lib/cni/flannel"
#ifdef _WIN32
           ,
           "C:flannel"  // relative to drive C:'s current folder
#endif
       }) {
    CAPTURE(dir);
    const std::string config = std::string(R"({"name":"n","type":"flannel","dataDir":")") + dir + R"("})";
    const std::string error = error_of(config.c_str());
    CHECK(error.starts_with("7 dataDir"));
    CHECK(error.find("is relative") != std::string::npos);
  }
}

TEST_CASE("a relative subnetFile is refused: it would be read from the runtime's working directory") {
  const std::string error = error_of(R"({"name":"n","type":"flannel","subnetFile":"run/flannel/subnet.env"})");
  CHECK(error.starts_with("7 subnetFile"));
  CHECK(error.find("is relative") != std::string::npos);
}

TEST_CASE("a dataDir from the root is taken, in each form the platform has") {
#ifdef _WIN32
  for (const char* dir : {"C:/flannel", "D:\\\\flannel", "\\\\flannel", "/flannel", "//server/share/flannel"}) {
#else
  for (const char* dir : {"/flannel", "//flannel", "/"}) {
#endif
    CAPTURE(dir);
    CHECK(error_of((std::string(R"({"name":"n","type":"flannel","dataDir":")") + dir + R"("})").c_str()) == "");
  }
}

TEST_CASE("the delegate checks give the reference's messages, in any key case") {
  CHECK(error_of(R"({"name":"n","type":"flannel","delegate":{"name":"x"}})") ==
        "7 'delegate' dictionary must not have 'name' field, it'll be set by flannel");
  CHECK(error_of(R"({"name":"n","type":"flannel","delegate":{"IPAM":{}}})") ==
        "7 'delegate' dictionary must not have 'ipam' field, it'll be set by flannel");
  CHECK(error_of(R"({"name":"n","type":"flannel","delegate":{"type":7}})") ==
        "7 'delegate' dictionary, if present, must have (string) 'type' field");
  CHECK(error_of(R"({"name":"n","type":"flannel","delegate":[]})").starts_with("7 delegate: must be an object"));
  // The reference would add "type":"win-bridge" beside "Type" here.
  CHECK(read(R"({"name":"n","type":"flannel","delegate":{"Type":"win-overlay"}})").delegate ==
        nlohmann::json{{"type", "win-overlay"}});
}

TEST_CASE("serviceCIDR: a string, a comma list or a JSON list, one network per family, kept as written") {
  using test::prefix;
  // Host bits are refused at ADD (test_delegate_config.cpp), not here: DEL
  // reads this config too, and must still tear down pods added before.
  CHECK(read(R"({"name":"n","type":"flannel","serviceCIDR":"10.96.0.1/12"})").service_networks ==
        std::vector{prefix("10.96.0.1/12")});
  CHECK(read(R"({"name":"n","type":"flannel","serviceCIDR":"10.96.0.0/12,fd00:10:96::/112"})").service_networks ==
        std::vector{prefix("10.96.0.0/12"), prefix("fd00:10:96::/112")});
  CHECK(read(R"({"name":"n","type":"flannel","serviceCIDR":["10.96.0.0/12"],"nodeIP":"10.0.0.4"})").node_ip ==
        test::ip("10.0.0.4"));
  CHECK(error_of(R"({"name":"n","type":"flannel","serviceCIDR":"10.96.0.0"})").starts_with("7 serviceCIDR:"));
  CHECK(error_of(R"({"name":"n","type":"flannel","serviceCIDR":"10.96.0.0/12,10.97.0.0/16"})") ==
        "7 serviceCIDR: one service network per IP family");
  CHECK(error_of(R"({"name":"n","type":"flannel","nodeIP":"me"})").starts_with("7 nodeIP:"));
  CHECK(error_of(R"({"name":"n","type":"flannel","subnetFileWaitSeconds":-1})").starts_with("7 subnetFileWaitSeconds"));
}

TEST_CASE("unknown keys: flannel's fixtures have none; a misspelt serviceCIDR is named, not silently ignored") {
  for (const test::FixtureConfig& fixture : test::kFixtureConfigs) {
    const std::string text = test::with_plain_spaces(fixture.text);
    if (text.find("\"delegate\"") == std::string::npos) continue;
    CAPTURE(fixture.file);
    CHECK(read_flannel_config(cni::NetConf::parse(text)).warnings.empty());
  }
  const FlannelConfig typo = read(R"({"name":"cbr0","type":"flannel","serivceCIDR":"10.96.0.0/12",
                                      "delegate":{"type":"win-bridge"}})");
  REQUIRE(typo.warnings.size() == 1);
  CHECK(typo.warnings[0] == "unknown key \"serivceCIDR\" is ignored (did you mean \"serviceCIDR\"?)");
  CHECK(typo.service_networks.empty());
}
