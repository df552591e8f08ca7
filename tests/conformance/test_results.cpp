// docs/reference/cni-protocol.md §4.7 (handler errors), §4.8 (result versions),
// §4.9 (prevResult pass-through), §4.10 (runtimeConfig and unknown keys).
#include <doctest/doctest.h>

#include "configs.hpp"
#include "drivers.hpp"
#include "golden_results.hpp"
#include "wincni/cni/error.hpp"

using namespace wincni::test;
using nlohmann::json;

TEST_CASE_TEMPLATE("ADD prints the result in exactly the requested version", D, CONFORMANCE_DRIVERS) {
  for (const auto& golden : kGoldenResults) {
    const std::string version(golden.version);
    CAPTURE(version);
    const Outcome r = D::run(complete_cni_env("ADD"), network_config(version));
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(r.out == golden.text);  // byte for byte, newline included
    const json answer = r.answer();
    CHECK(answer["cniVersion"] == version);
    if (version.rfind("0.3.", 0) == 0 || version == "0.4.0") {
      CHECK(answer["ips"][0]["version"] == "4");
      CHECK(answer["ips"][0]["interface"] == 0);  // index 0 is kept
    } else if (version.rfind("1.", 0) == 0) {
      CHECK_FALSE(answer["ips"][0].contains("version"));
      CHECK(answer["ips"][0]["interface"] == 0);
    } else {
      CHECK(answer.contains("ip4"));
      CHECK_FALSE(answer.contains("ips"));
    }
  }
}

TEST_CASE_TEMPLATE("a 0.1.0 or 0.2.0 result cannot be written without an address", D, CONFORMANCE_DRIVERS) {
  for (const char* version : {"0.1.0", "0.2.0"}) {
    CAPTURE(version);
    const Outcome r = D::run(complete_cni_env("ADD"), network_config(version, {{"noAddresses", true}}));
    CHECK(r.exit_code == 1);
    CHECK(r.answer()["cniVersion"] == version);
    CHECK(r.answer()["msg"] == "cannot convert: no valid IP addresses");
  }
  CHECK(D::run(complete_cni_env("ADD"), network_config("0.3.0", {{"noAddresses", true}})).exit_code == 0);
}

TEST_CASE_TEMPLATE("a prevResult passes through unchanged", D, CONFORMANCE_DRIVERS) {
  for (const auto& golden : kGoldenResults) {
    const std::string version(golden.version);
    CAPTURE(version);
    const Outcome r =
        D::run(complete_cni_env("ADD"), network_config(version, {{"prevResult", json::parse(golden.text)}}));
    CHECK(r.exit_code == 0);
    CHECK(r.out == golden.text);
  }
}

TEST_CASE_TEMPLATE("a prevResult without cniVersion is in the config's version", D, CONFORMANCE_DRIVERS) {
  json prev = json::parse(golden_text("0.4.0"));
  prev.erase("cniVersion");
  const Outcome r = D::run(complete_cni_env("ADD"), network_config("0.4.0", {{"prevResult", prev}}));
  CHECK(r.exit_code == 0);
  CHECK(r.out == golden_text("0.4.0"));
}

TEST_CASE_TEMPLATE("a prevResult from another version family is refused", D, CONFORMANCE_DRIVERS) {
  const std::pair<const char*, const char*> mismatches[] = {{"1.1.0", "0.2.0"}, {"0.4.0", "1.0.0"}, {"0.2.0", "0.3.1"}};
  for (const auto& row : mismatches) {
    // Named copies, not structured bindings: clang 14 cannot capture those.
    const auto& config_version = std::get<0>(row);
    const auto& prev_version = std::get<1>(row);
    CAPTURE(config_version);
    CAPTURE(prev_version);
    const Outcome r = D::run(complete_cni_env("ADD"),
                             network_config(config_version, {{"prevResult", json::parse(golden_text(prev_version))}}));
    CHECK(r.exit_code == 1);
    CHECK(r.answer()["code"] == wincni::cni::kDecodingFailure);
    CHECK(r.answer()["msg"].template get<std::string>().rfind("could not parse prevResult: ", 0) == 0);
  }
}

TEST_CASE_TEMPLATE("a handler's typed error keeps its code, on stdout", D, CONFORMANCE_DRIVERS) {
  const json failing = {{"errorCode", 11}, {"errorMsg", "try again later"}, {"errorDetails", "HNS is restarting"}};
  for (const char* command : {"ADD", "DEL", "CHECK", "GC", "STATUS"}) {
    CAPTURE(command);
    const Outcome r = D::run(complete_cni_env(command), network_config("1.1.0", failing));
    CHECK(r.exit_code == 1);
    CHECK(r.err.empty());
    CHECK(r.out ==
          "{\"cniVersion\":\"1.1.0\",\"code\":11,\"msg\":\"try again later\","
          "\"details\":\"HNS is restarting\"}\n");
  }
  const Outcome not_ready =
      D::run(complete_cni_env("STATUS"), network_config("1.1.0", {{"errorCode", 50}, {"errorMsg", "no network yet"}}));
  CHECK(not_ready.answer() == json{{"cniVersion", "1.1.0"}, {"code", 50}, {"msg", "no network yet"}});
  // The error is reported in the config's version.
  CHECK(D::run(complete_cni_env("DEL"), network_config("0.3.1", failing)).answer()["cniVersion"] == "0.3.1");
}

TEST_CASE_TEMPLATE("an untyped handler failure is internal error 999", D, CONFORMANCE_DRIVERS) {
  const Outcome r = D::run(complete_cni_env("ADD"), network_config("1.0.0", {{"throwUntyped", true}}));
  CHECK(r.exit_code == 1);
  CHECK(r.answer() == json{{"cniVersion", "1.0.0"}, {"code", 999}, {"msg", "untyped failure requested by the config"}});
}

TEST_CASE_TEMPLATE("runtimeConfig, capabilities, args and unknown keys are tolerated", D, CONFORMANCE_DRIVERS) {
  const json extra = {
      {"capabilities", {{"portMappings", true}, {"dns", true}}},
      {"runtimeConfig",
       {{"portMappings", {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}, {"hostIP", ""}}}},
        {"io.kubernetes.cri.pod-annotations", {{"a", "b"}}},
        {"someFutureCapability", {1, 2, 3}}}},
      {"args", {{"cni", {{"labels", {{{"key", "app"}, {"value", "web"}}}}}}}},
      {"ipMasq", true},
      {"somethingNew", {{"nested", true}}},
  };
  const Outcome r = D::run(complete_cni_env("ADD"), network_config("1.1.0", extra));
  CHECK(r.exit_code == 0);
  CHECK(r.out == golden_text("1.1.0"));
}
