// docs/reference/cni-protocol.md §4.1 (VERSION), §4.4 (version handling), §4.5 (gating).
#include <doctest/doctest.h>

#include <sstream>

#include "configs.hpp"
#include "conformance_plugin.hpp"
#include "drivers.hpp"
#include "wincni/cni/error.hpp"

using namespace wincni::test;
using nlohmann::json;
using wincni::cni::Environment;

namespace {

const std::string kAllVersions =
    R"({"cniVersion":"1.1.0","supportedVersions":["0.1.0","0.2.0","0.3.0","0.3.1","0.4.0","1.0.0","1.1.0"]})"
    "\n";

Environment version_only() {
  Environment env;
  env.set("CNI_COMMAND", "VERSION");
  return env;
}

}  // namespace

TEST_CASE_TEMPLATE("VERSION answers with no other variable, whatever stdin holds", D, CONFORMANCE_DRIVERS) {
  for (const std::string& stdin_text : {std::string(), std::string("garbage {"), network_config("1.1.0")}) {
    CAPTURE(stdin_text);
    const Outcome r = D::run(version_only(), stdin_text);
    CHECK(r.exit_code == 0);
    CHECK(r.out == kAllVersions);
    CHECK(r.err.empty());
  }
}

TEST_CASE_TEMPLATE("VERSION works with libcni's probe environment", D, CONFORMANCE_DRIVERS) {
  Environment env = version_only();
  env.set("CNI_CONTAINERID", "");
  env.set("CNI_NETNS", "dummy");
  env.set("CNI_IFNAME", "dummy");
  env.set("CNI_PATH", "dummy");
  const Outcome r = D::run(env, R"({"cniVersion":"1.1.0"})");
  CHECK(r.exit_code == 0);
  CHECK(r.out == kAllVersions);
}

TEST_CASE_TEMPLATE("VERSION lists exactly the versions the plugin claims", D, CONFORMANCE_DRIVERS) {
  Environment env = version_only();
  env.set("WINCNI_CONFORMANCE_VERSIONS", "0.3.1,0.4.0");
  const Outcome r = D::run(env, "");
  CHECK(r.out == "{\"cniVersion\":\"1.1.0\",\"supportedVersions\":[\"0.3.1\",\"0.4.0\"]}\n");
}

TEST_CASE("VERSION does not read stdin") {
  struct CountingSource : wincni::os::ByteSource {
    int reads = 0;
    std::size_t read(char*, std::size_t) override {
      ++reads;
      return 0;
    }
  } in;
  wincni::os::StringSink out, err;
  const Environment env = version_only();
  CHECK(wincni::cni::run_plugin(conformance_plugin_spec(env), {"plugin"}, env, in, out, err) == 0);
  CHECK(in.reads == 0);
}

TEST_CASE_TEMPLATE("a cniVersion the plugin does not support is incompatible", D, CONFORMANCE_DRIVERS) {
  const Outcome unknown = D::run(complete_cni_env("ADD"), network_config("2.0.0"));
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.answer() ==
        json{{"cniVersion", "1.1.0"},
             {"code", 1},
             {"msg", "incompatible CNI versions"},
             {"details",
              R"(config is "2.0.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0" "1.0.0" "1.1.0"])"}});

  const Outcome newer = D::run(env_claiming("DEL", "0.4.0,1.0.0"), network_config("1.1.0"));
  CHECK(newer.exit_code == 1);
  CHECK(newer.answer()["code"] == 1);
  CHECK(newer.answer()["details"] == R"(config is "1.1.0", plugin supports ["0.4.0" "1.0.0"])");
}

TEST_CASE_TEMPLATE("a config without cniVersion is 0.1.0", D, CONFORMANCE_DRIVERS) {
  const Outcome added = D::run(complete_cni_env("ADD"), network_config(nullptr));
  CHECK(added.exit_code == 0);
  CHECK(added.answer()["cniVersion"] == "0.1.0");
  CHECK(added.answer().contains("ip4"));

  const Outcome refused = D::run(env_claiming("ADD", "0.3.0,0.3.1,0.4.0,1.0.0"), network_config(""));
  CHECK(refused.exit_code == 1);
  CHECK(refused.answer()["code"] == 1);
  CHECK(refused.answer()["details"] == R"(config is "0.1.0", plugin supports ["0.3.0" "0.3.1" "0.4.0" "1.0.0"])");
}

TEST_CASE_TEMPLATE("a malformed cniVersion: 6 where versions are compared, 1 where matched", D, CONFORMANCE_DRIVERS) {
  for (const char* command : {"CHECK", "GC", "STATUS"}) {
    CAPTURE(command);
    const Outcome r = D::run(complete_cni_env(command), network_config("1.x"));
    CHECK(r.exit_code == 1);
    CHECK(r.answer()["code"] == wincni::cni::kDecodingFailure);
    CHECK(r.answer()["msg"] ==
          R"(failed to convert minor version part "x": strconv.Atoi: parsing "x": invalid syntax)");
  }
  for (const char* command : {"ADD", "DEL"}) {
    CAPTURE(command);
    const Outcome r = D::run(complete_cni_env(command), network_config("1.x"));
    CHECK(r.answer()["code"] == wincni::cni::kIncompatibleVersion);
  }
  // Not a string at all: the config cannot be decoded.
  CHECK(D::run(complete_cni_env("ADD"), network_config(110)).answer()["code"] == wincni::cni::kDecodingFailure);
}

TEST_CASE_TEMPLATE("CHECK needs a 0.4.0 config and a plugin that goes that far", D, CONFORMANCE_DRIVERS) {
  const Outcome old = D::run(complete_cni_env("CHECK"), network_config("0.3.1"));
  CHECK(old.exit_code == 1);
  CHECK(old.answer() == json{{"cniVersion", "0.3.1"}, {"code", 1}, {"msg", "config version does not allow CHECK"}});

  const Outcome ok = D::run(complete_cni_env("CHECK"), network_config("0.4.0"));
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.empty());

  const Outcome plugin_too_old = D::run(env_claiming("CHECK", "0.3.1,0.4.0"), network_config("1.0.0"));
  CHECK(plugin_too_old.exit_code == 1);
  CHECK(plugin_too_old.answer()["code"] == 1);
  CHECK(plugin_too_old.answer()["msg"] == "plugin version does not allow CHECK");
}

TEST_CASE_TEMPLATE("GC and STATUS need a 1.1.0 config", D, CONFORMANCE_DRIVERS) {
  for (const std::string& command : {std::string("GC"), std::string("STATUS")}) {
    CAPTURE(command);
    const Outcome old = D::run(complete_cni_env(command), network_config("1.0.0"));
    CHECK(old.exit_code == 1);
    CHECK(old.answer()["code"] == 1);
    CHECK(old.answer()["msg"] == "config version does not allow " + command);

    const Outcome ok = D::run(complete_cni_env(command), network_config("1.1.0"));
    CHECK(ok.exit_code == 0);
    CHECK(ok.out.empty());

    const Outcome plugin_too_old = D::run(env_claiming(command, "0.4.0,1.0.0"), network_config("1.1.0"));
    CHECK(plugin_too_old.answer()["msg"] == "plugin version does not allow " + command);
  }
}
