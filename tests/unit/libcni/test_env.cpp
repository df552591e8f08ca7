#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "wincni/cni/env.hpp"

using wincni::cni::Environment;

TEST_CASE("an environment holds, replaces and removes variables") {
  Environment env({{"CNI_COMMAND", "ADD"}, {"EMPTY", ""}});
  CHECK(env.get("CNI_COMMAND") == "ADD");
  CHECK(env.get("EMPTY") == "");  // empty is not unset
  CHECK_FALSE(env.get("MISSING").has_value());
  CHECK(env.get_or("MISSING", "fallback") == "fallback");
  CHECK(env.get_or("EMPTY", "fallback") == "");

  env.set("CNI_COMMAND", "DEL");
  env.set("CNI_PATH", "/opt/cni/bin");
  CHECK(env.get("CNI_COMMAND") == "DEL");
  env.unset("EMPTY");
  env.unset("NEVER_SET");
  CHECK_FALSE(env.get("EMPTY").has_value());
  CHECK(env.to_list() == std::vector<std::string>{"CNI_COMMAND=DEL", "CNI_PATH=/opt/cni/bin"});
}

TEST_CASE("a value may contain '=' and survives to_list") {
  Environment env;
  env.set("CNI_ARGS", "IgnoreUnknown=1;K8S_POD_NAME=web");
  CHECK(env.to_list() == std::vector<std::string>{"CNI_ARGS=IgnoreUnknown=1;K8S_POD_NAME=web"});
}

TEST_CASE("the process environment is read as the C library sees it") {
  const Environment env = Environment::from_process();
  REQUIRE_FALSE(env.vars().empty());
  int compared = 0;
  for (const auto& [name, value] : env.vars()) {
    CHECK_FALSE(name.empty());
    CHECK(name.find('=') == std::string::npos);
    // getenv returns the ANSI code page on Windows; compare ASCII values only.
    if (!std::all_of(value.begin(), value.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) continue;
    const char* seen = std::getenv(name.c_str());
    REQUIRE(seen != nullptr);
    CHECK(value == seen);
    ++compared;
  }
  CHECK(compared > 0);
}
