// docs/reference/cni-protocol.md §4.2 (missing variables), §4.3 (invalid values),
// §4.6 (unknown or absent command).
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "configs.hpp"
#include "conformance_plugin.hpp"
#include "drivers.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/os/process.hpp"

using namespace wincni::test;
using nlohmann::json;
using wincni::cni::Environment;

namespace {

// Go skel at HEAD, in table order.
const std::map<std::string, std::vector<std::string>> kRequired{
    {"ADD", {"CNI_CONTAINERID", "CNI_NETNS", "CNI_IFNAME", "CNI_PATH"}},
    {"CHECK", {"CNI_CONTAINERID", "CNI_NETNS", "CNI_IFNAME", "CNI_PATH"}},
    {"DEL", {"CNI_CONTAINERID", "CNI_IFNAME", "CNI_PATH"}},
    {"GC", {"CNI_PATH"}},
    {"STATUS", {"CNI_PATH"}},
};

// A config every command accepts (GC and STATUS need 1.1.0).
const std::string kConfig = network_config("1.1.0");

void check_invalid_env(const Outcome& r, const std::string& msg) {
  CHECK(r.exit_code == 1);
  CHECK(r.err.empty());
  const json answer = r.answer();
  CHECK(answer["code"] == wincni::cni::kInvalidEnvironment);
  CHECK(answer["msg"] == msg);
}

}  // namespace

TEST_CASE_TEMPLATE("each required variable, missing or empty, is named", D, CONFORMANCE_DRIVERS) {
  for (const auto& row : kRequired) {
    // Named copies, not structured bindings: clang 14 cannot capture those.
    const auto& command = std::get<0>(row);
    const auto& required = std::get<1>(row);
    for (const std::string& name : required) {
      CAPTURE(command);
      CAPTURE(name);
      Environment env = complete_cni_env(command);
      env.unset(name);
      check_invalid_env(D::run(env, kConfig), "required env variables [" + name + "] missing");
      env.set(name, "");
      check_invalid_env(D::run(env, kConfig), "required env variables [" + name + "] missing");
    }
  }
}

TEST_CASE_TEMPLATE("all missing variables are named in one error, in table order", D, CONFORMANCE_DRIVERS) {
  for (const auto& row : kRequired) {
    // Named copies, not structured bindings: clang 14 cannot capture those.
    const auto& command = std::get<0>(row);
    const auto& required = std::get<1>(row);
    CAPTURE(command);
    Environment env;
    env.set("CNI_COMMAND", command);
    std::string names;
    for (const std::string& name : required) names += (names.empty() ? "" : ",") + name;
    check_invalid_env(D::run(env, kConfig), "required env variables [" + names + "] missing");
  }
  Environment two_missing = complete_cni_env("ADD");
  two_missing.unset("CNI_NETNS");
  two_missing.set("CNI_PATH", "");
  check_invalid_env(D::run(two_missing, kConfig), "required env variables [CNI_NETNS,CNI_PATH] missing");
}

TEST_CASE_TEMPLATE("optional variables may be absent", D, CONFORMANCE_DRIVERS) {
  for (const auto& entry : kRequired) {
    CAPTURE(entry.first);
    Environment env = complete_cni_env(entry.first);
    env.unset("CNI_ARGS");
    CHECK(D::run(env, kConfig).exit_code == 0);
  }
  // libcni's GC and STATUS: container, netns, ifname and args all empty.
  for (const char* command : {"GC", "STATUS"}) {
    CAPTURE(command);
    Environment env = complete_cni_env(command);
    for (const char* name : {"CNI_CONTAINERID", "CNI_NETNS", "CNI_IFNAME", "CNI_ARGS"}) env.set(name, "");
    const Outcome r = D::run(env, kConfig);
    CHECK(r.exit_code == 0);
    CHECK(r.out.empty());
  }
}

TEST_CASE_TEMPLATE("an invalid container ID or interface name is an invalid environment", D, CONFORMANCE_DRIVERS) {
  for (const char* command : {"ADD", "CHECK", "DEL"}) {
    CAPTURE(command);
    Environment env = complete_cni_env(command);
    env.set("CNI_CONTAINERID", "some-%%container-id");
    const Outcome bad_id = D::run(env, kConfig);
    check_invalid_env(bad_id, "invalid characters in containerID");
    CHECK(bad_id.answer()["details"] == "some-%%container-id");

    const std::map<std::string, std::string> bad_names{
        {"a-very-long-interface-name", "interface name is too long"},
        {".", "interface name is . or .."},
        {"..", "interface name is . or .."},
        {"eth/0", "interface name contains / or : or whitespace characters"},
        {"eth:0", "interface name contains / or : or whitespace characters"},
        {"eth 0", "interface name contains / or : or whitespace characters"},
    };
    for (const auto& row : bad_names) {
      // Named copies, not structured bindings: clang 14 cannot capture those.
      const auto& ifname = std::get<0>(row);
      const auto& msg = std::get<1>(row);
      CAPTURE(ifname);
      Environment with_name = complete_cni_env(command);
      with_name.set("CNI_IFNAME", ifname);
      check_invalid_env(D::run(with_name, kConfig), msg);
    }
  }
}

TEST_CASE_TEMPLATE("a bad network name is an invalid config; bad JSON a decoding failure", D, CONFORMANCE_DRIVERS) {
  const Environment env = complete_cni_env("ADD");
  const Outcome bad_name = D::run(env, network_config("1.1.0", {{"name", "te%%st"}}));
  CHECK(bad_name.exit_code == 1);
  CHECK(bad_name.answer() == json{{"cniVersion", "1.1.0"},
                                  {"code", 7},
                                  {"msg", "invalid characters found in network name"},
                                  {"details", "te%%st"}});

  const Outcome no_name = D::run(env, R"({"cniVersion":"1.0.0","type":"x"})");
  CHECK(no_name.answer() == json{{"cniVersion", "1.0.0"}, {"code", 7}, {"msg", "missing network name"}});

  for (const char* text : {"", "{", "not json", "[]", R"({"name":"n"} {})"}) {
    CAPTURE(text);
    const Outcome r = D::run(env, text);
    CHECK(r.exit_code == 1);
    CHECK(r.answer()["code"] == wincni::cni::kDecodingFailure);
    CHECK(r.answer()["msg"].template get<std::string>().rfind("error unmarshall network config: ", 0) == 0);
    CHECK(r.answer()["cniVersion"] == "1.1.0");  // the config's version is unknown
  }
}

TEST_CASE_TEMPLATE("a config nested a million levels deep is refused, not a crash", D, CONFORMANCE_DRIVERS) {
  const size_t levels = 1000000;
  const std::string deep = R"({"cniVersion":"1.1.0","name":"conformance-net","x":)" + std::string(levels, '[') +
                           std::string(levels, ']') + "}";
  const Outcome r = D::run(complete_cni_env("ADD"), deep);
  CHECK(r.exit_code == 1);
  CHECK(r.answer() == json{{"cniVersion", "1.1.0"},
                           {"code", wincni::cni::kDecodingFailure},
                           {"msg", "error unmarshall network config: invalid character '[' exceeded max depth"}});
}

TEST_CASE_TEMPLATE("the environment is checked before stdin", D, CONFORMANCE_DRIVERS) {
  Environment env = complete_cni_env("ADD");
  env.unset("CNI_IFNAME");
  check_invalid_env(D::run(env, "not json"), "required env variables [CNI_IFNAME] missing");
}

TEST_CASE_TEMPLATE("an unknown command is reported after the stdin checks", D, CONFORMANCE_DRIVERS) {
  const Environment env = complete_cni_env("NOPE");
  check_invalid_env(D::run(env, kConfig), "unknown CNI_COMMAND: NOPE");
  CHECK(D::run(env, "").answer()["code"] == wincni::cni::kDecodingFailure);
  CHECK(D::run(env, network_config("1.1.0", {{"name", ""}})).answer()["code"] == wincni::cni::kInvalidNetworkConfig);
  // Commands are case-sensitive.
  check_invalid_env(D::run(complete_cni_env("add"), kConfig), "unknown CNI_COMMAND: add");
}

TEST_CASE_TEMPLATE("without CNI_COMMAND the about text goes to stderr", D, CONFORMANCE_DRIVERS) {
  Environment env = complete_cni_env("ADD");
  env.unset("CNI_COMMAND");
  const Outcome r = D::run(env, kConfig);
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(r.err == wincni::cni::about_text(conformance_plugin_spec(env)));
  CHECK(r.err.find("CNI protocol versions supported: 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0, 1.1.0\n") !=
        std::string::npos);
}

TEST_CASE("an unreadable stdin is an I/O failure (in process)") {
  struct FailingSource : wincni::os::ByteSource {
    std::size_t read(char*, std::size_t) override { throw std::runtime_error("Input/output error"); }
  } in;
  wincni::os::StringSink out, err;
  const Environment env = complete_cni_env("ADD");
  CHECK(wincni::cni::run_plugin(conformance_plugin_spec(env), {"plugin"}, env, in, out, err) == 1);
  CHECK(json::parse(out.text) ==
        json{{"cniVersion", "1.1.0"}, {"code", 5}, {"msg", "error reading from stdin: Input/output error"}});
}

// The real binary's stdin is a directory: read() fails with EISDIR.
TEST_CASE("an unreadable stdin is an I/O failure (as a binary)" * doctest::skip(!WINCNI_HAVE_POSIX_SHELL)) {
  wincni::os::ProcessSpec spec;
  spec.program = "/bin/sh";
  spec.args = {"-c", "exec \"$0\" < /", conformance_plugin_program()};
  spec.env = complete_cni_env("ADD").to_list();
  spec.timeout = std::chrono::seconds(60);
  const wincni::os::ProcessOutcome r = wincni::os::run_process(spec);
  CHECK(r.exit_code == 1);
  const json answer = json::parse(r.out);
  CHECK(answer["code"] == wincni::cni::kIoFailure);
  CHECK(answer["msg"].get<std::string>().rfind("error reading from stdin: ", 0) == 0);
}
