// docs/reference/cni-protocol.md §4.11 (DEL) and §4.17 (CNI_ARGS).
#include <doctest/doctest.h>

#include "configs.hpp"
#include "drivers.hpp"
#include "wincni/cni/error.hpp"

using namespace wincni::test;
using nlohmann::json;
using wincni::cni::Environment;

TEST_CASE_TEMPLATE("DEL twice in a row succeeds both times, silently", D, CONFORMANCE_DRIVERS) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    CAPTURE(attempt);
    const Outcome r = D::run(complete_cni_env("DEL"), network_config("1.0.0"));
    CHECK(r.exit_code == 0);
    CHECK(r.out.empty());
    CHECK(r.err.empty());
  }
}

TEST_CASE_TEMPLATE("DEL needs no netns and no prevResult", D, CONFORMANCE_DRIVERS) {
  Environment env = complete_cni_env("DEL");
  env.unset("CNI_NETNS");
  for (const char* version : {"0.1.0", "0.3.1", "0.4.0", "1.1.0"}) {
    CAPTURE(version);
    const Outcome r = D::run(env, network_config(version));
    CHECK(r.exit_code == 0);
    CHECK(r.out.empty());
  }
  // From 0.4.0 the runtime sends the cached result along; it is accepted too.
  const Outcome with_prev = D::run(env, network_config("0.4.0", {{"prevResult", json::parse(golden_text("0.4.0"))}}));
  CHECK(with_prev.exit_code == 0);
  CHECK(with_prev.out.empty());
}

TEST_CASE_TEMPLATE("CNI_ARGS from containerd are understood", D, CONFORMANCE_DRIVERS) {
  Environment env = complete_cni_env("ADD");
  env.set("CNI_ARGS",
          "K8S_POD_INFRA_CONTAINER_ID=0123abcd;K8S_POD_UID=6f1c-11ee;IgnoreUnknown=1;"
          "K8S_POD_NAMESPACE=default;K8S_POD_NAME=web-0");
  CHECK(D::run(env, network_config("1.1.0")).exit_code == 0);
}

TEST_CASE_TEMPLATE("unknown CNI_ARGS are refused unless IgnoreUnknown is true", D, CONFORMANCE_DRIVERS) {
  Environment env = complete_cni_env("ADD");
  env.set("CNI_ARGS", "K8S_POD_NAME=web-0;FOO=bar");
  const Outcome refused = D::run(env, network_config("1.1.0"));
  CHECK(refused.exit_code == 1);
  CHECK(refused.answer() ==
        json{{"cniVersion", "1.1.0"}, {"code", 4}, {"msg", R"(CNI_ARGS: unknown args ["FOO=bar"])"}});
  for (const char* yes : {"1", "true", "True"}) {
    CAPTURE(yes);
    env.set("CNI_ARGS", std::string("FOO=bar;IgnoreUnknown=") + yes);
    CHECK(D::run(env, network_config("1.1.0")).exit_code == 0);
  }
  env.set("CNI_ARGS", "FOO=bar;IgnoreUnknown=0");
  CHECK(D::run(env, network_config("1.1.0")).answer()["code"] == wincni::cni::kInvalidEnvironment);
}

TEST_CASE_TEMPLATE("a CNI_ARGS pair needs exactly one '='", D, CONFORMANCE_DRIVERS) {
  Environment env = complete_cni_env("ADD");
  for (const char* args : {"K8S_POD_NAME", "K8S_POD_NAME=a=b", "IgnoreUnknown=1;;K8S_POD_NAME=a"}) {
    CAPTURE(args);
    env.set("CNI_ARGS", args);
    const Outcome r = D::run(env, network_config("1.1.0"));
    CHECK(r.exit_code == 1);
    CHECK(r.answer()["code"] == wincni::cni::kInvalidEnvironment);
    CHECK(r.answer()["msg"].template get<std::string>().rfind("CNI_ARGS: invalid pair ", 0) == 0);
  }
}
