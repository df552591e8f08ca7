#include <doctest/doctest.h>

#include "cni_test_helpers.hpp"
#include "config/port_mapping.hpp"

using namespace wincni;
using namespace wincni::engine;
using nlohmann::json;

namespace {
std::vector<PortMapping> read(const char* text) { return read_port_mappings(json::parse(text)); }
}  // namespace

TEST_CASE("port mappings: names, numbers, host IPs") {
  auto mappings = read(R"({"portMappings":[
      {"hostPort":8080,"containerPort":80,"protocol":"tcp"},
      {"hostPort":53,"containerPort":5353,"protocol":"UDP","hostIP":"192.168.1.2"},
      {"hostPort":9000,"containerPort":9000,"protocol":"6"},
      {"hostPort":9001,"containerPort":9001,"protocol":17},
      {"hostPort":9002,"containerPort":9002},
      {"hostPort":9003,"containerPort":9003,"protocol":"tcp","hostIP":"0.0.0.0"},
      {"hostPort":9004,"containerPort":9004,"protocol":"tcp","hostIP":"fd00::5"}]})");
  REQUIRE(mappings.size() == 7);
  CHECK(mappings[0].host_port == 8080);
  CHECK(mappings[0].container_port == 80);
  CHECK(mappings[0].protocol.number == 6);
  CHECK_FALSE(mappings[0].host_ip);
  CHECK(mappings[1].protocol.number == 17);
  CHECK(mappings[1].host_ip->str() == "192.168.1.2");
  CHECK(mappings[2].protocol.number == 6);
  CHECK(mappings[3].protocol.number == 17);
  CHECK(mappings[4].protocol.number == 6);  // default
  CHECK_FALSE(mappings[5].host_ip);         // every address
  CHECK(mappings[6].host_ip->str() == "fd00::5");
}

TEST_CASE("no portMappings is no mappings") {
  CHECK(read("{}").empty());
  CHECK(read(R"({"portMappings":[]})").empty());
  CHECK(read(R"({"portMappings":null})").empty());
}

TEST_CASE("a protocol HNS cannot map is an error naming it") {
  auto error =
      test::thrown_error([] { read(R"({"portMappings":[{"hostPort":1,"containerPort":1,"protocol":"sctp"}]})"); });
  CHECK(error.code() == cni::kInvalidNetworkConfig);
  CHECK(error.msg() ==
        "runtimeConfig.portMappings[0].protocol: unknown protocol \"sctp\" (expected tcp, udp or a "
        "protocol number)");
  error =
      test::thrown_error([] { read(R"({"portMappings":[{"hostPort":1,"containerPort":1,"protocol":"icmpv4"}]})"); });
  CHECK(error.msg() ==
        "runtimeConfig.portMappings[0].protocol: protocol \"icmpv4\" cannot be mapped by HNS (only "
        "tcp and udp)");
  error = test::thrown_error([] { read(R"({"portMappings":[{"hostPort":1,"containerPort":1,"protocol":300}]})"); });
  CHECK(error.msg().find("\"300\"") != std::string::npos);
}

TEST_CASE("ports must be 1-65535 and present") {
  auto error = test::thrown_error([] { read(R"({"portMappings":[{"hostPort":0,"containerPort":80}]})"); });
  CHECK(error.msg() == "runtimeConfig.portMappings[0].hostPort: 0 is not in 1-65535");
  error = test::thrown_error([] { read(R"({"portMappings":[{"hostPort":80,"containerPort":70000}]})"); });
  CHECK(error.msg() == "runtimeConfig.portMappings[0].containerPort: 70000 is not in 1-65535");
  error = test::thrown_error([] { read(R"({"portMappings":[{"hostPort":80}]})"); });
  CHECK(error.msg() == "runtimeConfig.portMappings[0].containerPort: is required");
  error = test::thrown_error([] { read(R"({"portMappings":[{"hostPort":"80","containerPort":80}]})"); });
  CHECK(error.msg() == "runtimeConfig.portMappings[0].hostPort: must be a number, not string");
  error = test::thrown_error([] { read(R"({"portMappings":[{"hostPort":80,"containerPort":80,"hostIP":"x"}]})"); });
  CHECK(error.msg() == "runtimeConfig.portMappings[0].hostIP: \"x\" is not an IP address");
  error = test::thrown_error([] { read(R"({"portMappings":{}})"); });
  CHECK(error.msg() == "runtimeConfig.portMappings: must be an array, not object");
}
