#include <doctest/doctest.h>

#include "cni_test_helpers.hpp"
#include "config/dns_settings.hpp"

using namespace wincni;
using namespace wincni::engine;
using nlohmann::json;

TEST_CASE("dns comes from the config, keys in any case") {
  auto dns = effective_dns(json::parse(
      R"({"dns":{"Nameservers":["11.0.0.10"],"Search":["svc.cluster.local"],"domain":"cluster.local","options":["ndots:5"]}})"));
  CHECK(dns.nameservers == std::vector<std::string>{"11.0.0.10"});
  CHECK(dns.search == std::vector<std::string>{"svc.cluster.local"});
  CHECK(dns.domain == "cluster.local");
  CHECK(dns.options == std::vector<std::string>{"ndots:5"});
}

TEST_CASE("runtimeConfig.dns replaces what it sets, keeps the rest") {
  auto dns = effective_dns(json::parse(R"({
      "dns":{"nameservers":["11.0.0.10"],"search":["svc.cluster.local"],"domain":"cluster.local","options":["a"]},
      "runtimeConfig":{"dns":{"servers":["10.96.0.10"],"searches":["default.svc.cluster.local","svc.cluster.local"]}}})"));
  CHECK(dns.nameservers == std::vector<std::string>{"10.96.0.10"});
  CHECK(dns.search == std::vector<std::string>{"default.svc.cluster.local", "svc.cluster.local"});
  CHECK(dns.options == std::vector<std::string>{"a"});
  CHECK(dns.domain == "cluster.local");

  dns = effective_dns(
      json::parse(R"({"dns":{"options":["a"]},"runtimeConfig":{"dns":{"options":["ndots:5"],"servers":[]}}})"));
  CHECK(dns.options == std::vector<std::string>{"ndots:5"});
  CHECK(dns.nameservers.empty());
}

TEST_CASE("no dns at all is empty") {
  CHECK(effective_dns(json::object()).empty());
  CHECK(effective_dns(json::parse(R"({"runtimeConfig":{}})")).empty());
}

TEST_CASE("malformed runtime dns is an error naming the field") {
  auto error = test::thrown_error([] { effective_dns(json::parse(R"({"runtimeConfig":{"dns":{"servers":[1]}}})")); });
  CHECK(error.code() == cni::kInvalidNetworkConfig);
  CHECK(error.msg() == "runtimeConfig.dns.servers[0]: must be a string");
}
