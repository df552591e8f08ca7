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

// The pod's namespace in its search list (pod_dns_search.hpp): what
// Kubernetes promises, with the operator's entries kept in their order.
TEST_CASE("the pod's namespace: the search list Kubernetes promises, the operator's entries kept") {
  using List = std::vector<std::string>;
  const auto search = [](const std::string& config, std::string_view ns = "prod") {
    return effective_dns(json::parse(config), ns).search;
  };
  // Every conf-example's list, and the installer's.
  CHECK(search(R"({"dns":{"search":["svc.cluster.local"]}})") ==
        List{"prod.svc.cluster.local", "svc.cluster.local", "cluster.local"});
  // Microsoft's dialect, another cluster domain, its letter case kept.
  CHECK(search(R"({"dns":{"Search":["SVC.Corp.Example"]}})") ==
        List{"prod.svc.Corp.Example", "SVC.Corp.Example", "Corp.Example"});
  // The domain alone, and with a trailing dot.
  CHECK(search(R"({"dns":{"search":["cluster.local."]}})") ==
        List{"prod.svc.cluster.local", "svc.cluster.local", "cluster.local."});
  // The config's domain names the cluster's when no svc. entry does.
  CHECK(search(R"({"dns":{"domain":"k8s.internal","search":["corp.example","k8s.internal"]}})") ==
        List{"corp.example", "prod.svc.k8s.internal", "svc.k8s.internal", "k8s.internal"});
  // Entries around and between the cluster's stay where they were.
  CHECK(search(R"({"dns":{"search":["corp.example","svc.cluster.local","lab.example","cluster.local","x.example"]}})") ==
        List{"corp.example", "prod.svc.cluster.local", "svc.cluster.local", "lab.example", "cluster.local",
             "x.example"});
  CHECK(search(R"({"dns":{"search":["cluster.local","svc.cluster.local"]}})") ==
        List{"prod.svc.cluster.local", "cluster.local", "svc.cluster.local"});
  // Already there, in any case: nothing added twice.
  CHECK(search(R"({"dns":{"search":["PROD.svc.cluster.local","svc.cluster.local","cluster.local"]}})") ==
        List{"PROD.svc.cluster.local", "svc.cluster.local", "cluster.local"});
  // Another namespace's entry the operator wrote stays too.
  CHECK(search(R"({"dns":{"search":["default.svc.cluster.local","svc.cluster.local"]}})") ==
        List{"default.svc.cluster.local", "prod.svc.cluster.local", "svc.cluster.local", "cluster.local"});
}

TEST_CASE("the pod's namespace: nothing changes without one, when turned off, or when the runtime gave a list") {
  using List = std::vector<std::string>;
  const std::string config = R"({"dns":{"search":["svc.cluster.local"]}})";
  CHECK(effective_dns(json::parse(config)).search == List{"svc.cluster.local"});
  CHECK(effective_dns(json::parse(config), "").search == List{"svc.cluster.local"});
  CHECK(effective_dns(json::parse(R"({"podNamespaceDnsSuffix":false,"dns":{"search":["svc.cluster.local"]}})"), "prod")
            .search == List{"svc.cluster.local"});
  // containerd's dnsConfig from the kubelet: the namespace is in it already.
  CHECK(effective_dns(json::parse(R"({"dns":{"search":["svc.cluster.local"]},
                                     "runtimeConfig":{"dns":{"Searches":["prod.svc.cluster.local","svc.cluster.local"]}}})"),
                      "prod")
            .search == List{"prod.svc.cluster.local", "svc.cluster.local"});
  // An empty runtime list does not replace the config's, which gets the namespace.
  CHECK(effective_dns(json::parse(R"({"dns":{"search":["svc.cluster.local"]},"runtimeConfig":{"dns":{"searches":[]}}})"),
                      "prod")
            .search.size() == 3);
  // No cluster domain in the list, or no list.
  CHECK(effective_dns(json::parse(R"({"dns":{"search":["corp.example"]}})"), "prod").search == List{"corp.example"});
  CHECK(effective_dns(json::parse(R"({"dns":{"nameservers":["10.96.0.10"]}})"), "prod").search.empty());
  // Not a namespace's name: a ',' would split HNS v1's DNSSuffix.
  const std::string nul("a\0b", 3);
  const std::string too_long(64, 'a');
  for (std::string_view bad : {std::string_view("a,b"), std::string_view("Prod"), std::string_view("-x"),
                               std::string_view("x-"), std::string_view("a.b"), std::string_view(nul),
                               std::string_view(too_long)}) {
    CAPTURE(bad);
    CHECK(effective_dns(json::parse(config), bad).search == List{"svc.cluster.local"});
  }
  CHECK(test::thrown_error([] { effective_dns(json::parse(R"({"podNamespaceDnsSuffix":"no"})"), "prod"); }).code() ==
        cni::kInvalidNetworkConfig);
}
