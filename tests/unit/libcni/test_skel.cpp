#include <doctest/doctest.h>

#include <fstream>
#include <stdexcept>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#ifdef _WIN32
#include <windows.h>
#endif

#include "cni_test_helpers.hpp"
#include "scratch_dir.hpp"
#include "wincni/cni/build_identity.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/os/error_dialogs.hpp"
#include "wincni/cni/skel.hpp"

using namespace wincni::cni;
using nlohmann::json;

namespace {

struct Run {
  int exit_code;
  std::string out, err;
  json answer() const { return json::parse(out); }
};

Run run(const PluginSpec& spec, const Environment& env, const std::string& stdin_text,
        std::vector<std::string> argv = {"plugin"}) {
  wincni::os::StringSource in(stdin_text);
  wincni::os::StringSink out, err;
  const int code = run_plugin(spec, argv, env, in, out, err);
  return {code, out.text, err.text};
}

Environment env_for(const std::string& command) { return wincni::test::complete_cni_env(command); }

Result one_address() {
  Result result;
  result.ips.push_back({*IpPrefix::parse("10.0.0.5/24"), IpAddress::parse("10.0.0.1"), std::nullopt});
  return result;
}

PluginSpec spec_with_add() {
  PluginSpec spec;
  spec.name = "test-plugin";
  spec.description = "for the skel tests";
  spec.add = [](const CommandContext&) { return one_address(); };
  spec.del = [](const CommandContext&) {};
  return spec;
}

const std::string kConfig = R"({"cniVersion":"1.0.0","name":"net1","type":"test-plugin"})";

// A stdin whose read fails, as reading a directory does.
class FailingSource : public wincni::os::ByteSource {
 public:
  std::size_t read(char*, std::size_t) override { throw std::runtime_error("Is a directory"); }
};

}  // namespace

TEST_CASE("--help and --version answer on stdout and exit 0") {
  const PluginSpec spec = spec_with_add();
  const Run help = run(spec, Environment(), "", {"plugin", "--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("Usage: test-plugin") != std::string::npos);
  CHECK(help.out.find("CNI_COMMAND") != std::string::npos);
  CHECK(help.out.find("WINCNI_LOG_FILE") != std::string::npos);
  CHECK(run(spec, Environment(), "", {"plugin", "-h"}).out == help.out);

  const Run version = run(spec, env_for("ADD"), kConfig, {"plugin", "--version"});
  CHECK(version.exit_code == 0);
  CHECK(version.out == std::string("test-plugin (wincni ") + WINCNI_VERSION + ", commit " +
                           std::string(wincni::cni::build_commit()) + ")\n");

  const Run unknown = run(spec, Environment(), "", {"plugin", "--frobnicate"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.out.empty());
  CHECK(unknown.err.find("unknown option --frobnicate") != std::string::npos);
}

TEST_CASE("the build's identity: the project's version and the commit, never empty") {
  CHECK(wincni::cni::suite_version() == WINCNI_VERSION);
  const std::string commit(wincni::cni::build_commit());
  CHECK_FALSE(commit.empty());
  CHECK(commit.find('@') == std::string::npos);  // vcs_tag replaced its placeholder
  CHECK(wincni::cni::version_line("x") == "x (wincni " WINCNI_VERSION ", commit " + commit + ")");
}

TEST_CASE("without CNI_COMMAND the about text goes to stderr") {
  PluginSpec spec = spec_with_add();
  spec.supported_versions = {"0.4.0", "1.0.0"};
  Environment no_command;
  no_command.set("CNI_CONTAINERID", "x");
  const Run about = run(spec, no_command, "");
  CHECK(about.exit_code == 0);
  CHECK(about.out.empty());
  CHECK(about.err == std::string("test-plugin for the skel tests (wincni ") + WINCNI_VERSION + ", commit " +
                         std::string(wincni::cni::build_commit()) +
                         ")\nCNI protocol versions supported: 0.4.0, 1.0.0\n");
  CHECK(about_text(spec) == about.err);
}

TEST_CASE("handlers see the whole invocation") {
  PluginSpec spec = spec_with_add();
  CommandContext seen;
  spec.add = [&](const CommandContext& ctx) {
    seen = ctx;
    ctx.log().info("visible to handlers");
    return one_address();
  };
  const Environment env = env_for("ADD");
  const Run r = run(spec, env, kConfig);
  REQUIRE(r.exit_code == 0);
  CHECK(seen.command == "ADD");
  CHECK(seen.container_id == "c1");
  CHECK(seen.netns == "ns1");
  CHECK(seen.ifname == "eth0");
  CHECK(seen.cni_args == "K8S_POD_NAME=web");
  CHECK(seen.cni_path == "/opt/cni/bin");
  CHECK(seen.stdin_data == kConfig);
  CHECK(seen.config.name() == "net1");
  CHECK(seen.env != nullptr);
  CHECK(seen.logger != nullptr);
  CHECK(r.out == "{\"cniVersion\":\"1.0.0\",\"ips\":[{\"address\":\"10.0.0.5/24\",\"gateway\":\"10.0.0.1\"}]}\n");
}

TEST_CASE("a missing ADD or DEL handler is an error; CHECK, GC and STATUS succeed without one") {
  PluginSpec spec;
  spec.name = "bare";
  const std::string config = R"({"cniVersion":"1.1.0","name":"net1"})";
  for (const char* command : {"ADD", "DEL"}) {
    CAPTURE(command);
    const Run r = run(spec, env_for(command), config);
    CHECK(r.exit_code == 1);
    CHECK(r.answer()["code"] == kInternal);
    CHECK(r.answer()["msg"] == std::string("bare does not implement ") + command);
  }
  for (const char* command : {"CHECK", "GC", "STATUS"}) {
    CAPTURE(command);
    const Run r = run(spec, env_for(command), config);
    CHECK(r.exit_code == 0);
    CHECK(r.out.empty());
  }
}

TEST_CASE("exceptions become error JSON on stdout") {
  PluginSpec spec = spec_with_add();
  SUBCASE("a CNI error keeps its code, message and details") {
    spec.del = [](const CommandContext&) { throw Error(kTryAgainLater, "busy", "HNS is starting"); };
    const Run r = run(spec, env_for("DEL"), kConfig);
    CHECK(r.exit_code == 1);
    CHECK(r.out == "{\"cniVersion\":\"1.0.0\",\"code\":11,\"msg\":\"busy\",\"details\":\"HNS is starting\"}\n");
  }
  SUBCASE("a std::exception is internal error 999 with its what()") {
    spec.del = [](const CommandContext&) { throw std::out_of_range("index 7"); };
    const Run r = run(spec, env_for("DEL"), kConfig);
    CHECK(r.out == "{\"cniVersion\":\"1.0.0\",\"code\":999,\"msg\":\"index 7\"}\n");
  }
  SUBCASE("anything else is 999 too") {
    spec.del = [](const CommandContext&) { throw 42; };
    const Run r = run(spec, env_for("DEL"), kConfig);
    CHECK(r.exit_code == 1);
    CHECK(r.answer()["code"] == 999);
    CHECK(r.answer()["msg"] == "unknown exception");
  }
  SUBCASE("invalid UTF-8 in a message still gives valid JSON") {
    spec.del = [](const CommandContext&) { throw Error(100, "bad \xff byte"); };
    const Run r = run(spec, env_for("DEL"), kConfig);
    CHECK(r.answer()["code"] == 100);
  }
}

TEST_CASE("a result that cannot be written in the config's version leaves only the error on stdout") {
  PluginSpec spec = spec_with_add();
  spec.add = [](const CommandContext&) { return Result{}; };  // no IPs: nothing to put in ip4/ip6
  const Run r = run(spec, env_for("ADD"), R"({"cniVersion":"0.2.0","name":"net1"})");
  CHECK(r.exit_code == 1);
  const json answer = r.answer();  // exactly one JSON document
  CHECK(answer["cniVersion"] == "0.2.0");
  CHECK(answer["code"] != 0);
}

TEST_CASE("the error's cniVersion is the config's when known, else the newest") {
  PluginSpec spec = spec_with_add();
  spec.del = [](const CommandContext&) { throw Error(100, "x"); };
  CHECK(run(spec, env_for("DEL"), R"({"cniVersion":"0.3.1","name":"n"})").answer()["cniVersion"] == "0.3.1");
  CHECK(run(spec, env_for("DEL"), R"({"name":"n"})").answer()["cniVersion"] == "0.1.0");
  CHECK(run(spec, env_for("DEL"), R"({"cniVersion":"9.9.9","name":"n"})").answer()["cniVersion"] == "1.1.0");
  CHECK(run(spec, env_for("DEL"), "garbage").answer()["cniVersion"] == "1.1.0");
}

TEST_CASE("a stdin read error is an I/O failure with its cause") {
  FailingSource in;
  wincni::os::StringSink out, err;
  const int code = run_plugin(spec_with_add(), {"plugin"}, env_for("ADD"), in, out, err);
  CHECK(code == 1);
  const json answer = json::parse(out.text);
  CHECK(answer["code"] == kIoFailure);
  CHECK(answer["msg"] == "error reading from stdin: Is a directory");
}

// security review, finding 8: 40 MB of stdin cost host-local 1 GB and 14 s.
TEST_CASE("a stdin over 16 MiB is refused with code 6 before it is parsed; one at the limit is read") {
  bool handled = false;
  PluginSpec spec = spec_with_add();
  spec.add = [&handled](const CommandContext&) {
    handled = true;
    return one_address();
  };
  // A config padded with spaces to the limit, and one byte more.
  std::string config = kConfig;
  config.resize(16 * 1024 * 1024, ' ');
  CHECK(run(spec, env_for("ADD"), config).exit_code == 0);
  CHECK(handled);
  handled = false;
  const Run over = run(spec, env_for("ADD"), config + " ");
  CHECK(over.exit_code == 1);
  CHECK(over.answer()["code"] == kDecodingFailure);
  CHECK(over.answer()["msg"] == "the network configuration on stdin is over 16 MiB: refused unread");
  CHECK_FALSE(handled);
}

TEST_CASE("an ADD whose result cannot be written is undone by DEL, and nothing else is written") {
  // A runtime that closed the pipe: what it did not read did not happen.
  struct RefusingSink : wincni::os::ByteSink {
    int writes = 0;
    bool write(std::string_view) override {
      ++writes;
      return false;
    }
  } out;
  int deletes = 0;
  PluginSpec spec = spec_with_add();
  spec.del = [&deletes](const CommandContext& ctx) {
    CHECK(ctx.command == "DEL");
    ++deletes;
  };
  wincni::os::StringSource in(kConfig);
  wincni::os::StringSink err;
  CHECK(run_plugin(spec, {"plugin"}, env_for("ADD"), in, out, err) == 1);
  CHECK(deletes == 1);
  CHECK(out.writes == 1);  // the result only: no error JSON behind a part of it
  CHECK(json::parse(err.text)["msg"] == "cannot write the result to stdout");
}

TEST_CASE("every command leaves one summary line in the log file") {
  wincni::test::ScratchDir dir;
  const auto log_file = dir / "plugin.log";
  PluginSpec spec = spec_with_add();
  spec.del = [](const CommandContext& ctx) {
    ctx.log().info("deleting {}", ctx.container_id);
    throw Error(kTryAgainLater, "busy");
  };
  Environment env = env_for("ADD");
  env.set("WINCNI_LOG_FILE", log_file.string());
  REQUIRE(run(spec, env, kConfig).exit_code == 0);
  env.set("CNI_COMMAND", "DEL");
  REQUIRE(run(spec, env, kConfig).exit_code == 1);
  env.set("CNI_COMMAND", "VERSION");
  REQUIRE(run(spec, env, "").exit_code == 0);

  std::ifstream in(log_file, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].find("test-plugin[") != std::string::npos);
  CHECK(lines[0].find("] ADD c1: ok in ") != std::string::npos);
  CHECK(lines[1].find("] DEL c1: deleting c1") != std::string::npos);
  CHECK(lines[2].find("ERROR") != std::string::npos);
  CHECK(lines[2].find("] DEL c1: failed with code 11 in ") != std::string::npos);
  CHECK(lines[2].find("busy") != std::string::npos);
  CHECK(lines[3].find("] VERSION c1: ok") != std::string::npos);
}

// security review, finding 10.
TEST_CASE("the log file: a repair is written whatever the level; past 10 MiB it is moved aside to .1") {
  wincni::test::ScratchDir dir;
  const auto log_file = dir / "plugin.log";
  PluginSpec spec = spec_with_add();
  spec.add = [](const CommandContext& ctx) {
    ctx.log().warn("a warning the level leaves out");
    ctx.log().repair("removed endpoint {}", "old_cbr0");
    return one_address();
  };
  Environment env = env_for("ADD");
  env.set("WINCNI_LOG_FILE", log_file.string());
  env.set("WINCNI_LOG_LEVEL", "error");
  {
    std::ofstream big(log_file, std::ios::binary);
    big << std::string(10 * 1024 * 1024 + 1, 'x');
  }
  REQUIRE(run(spec, env, kConfig).exit_code == 0);
  CHECK(std::filesystem::file_size(dir / "plugin.log.1") == 10 * 1024 * 1024 + 1);
  std::ifstream in(log_file, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("WARN  test-plugin[") != std::string::npos);
  CHECK(lines[0].find("removed endpoint old_cbr0") != std::string::npos);
#ifndef _WIN32
  // Private, as the plugin's other files.
  CHECK((std::filesystem::status(log_file).permissions() & std::filesystem::perms::mask) ==
        (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
#endif
}

TEST_CASE("a log file that is a link is not written through; the plugin still answers") {
  wincni::test::ScratchDir dir;
  const auto victim = dir / "victim";
  std::ofstream(victim, std::ios::binary) << "precious";
  std::error_code no_links;
  std::filesystem::create_symlink(victim, dir / "plugin.log", no_links);
  if (no_links) {
    MESSAGE("no symbolic links here (" << no_links.message() << "): not run");
    return;
  }
  Environment env = env_for("ADD");
  env.set("WINCNI_LOG_FILE", (dir / "plugin.log").string());
  env.set("WINCNI_LOG_LEVEL", "debug");
  const Run added = run(spec_with_add(), env, kConfig);
  CHECK(added.exit_code == 0);
  CHECK(added.err.find("refused") != std::string::npos);
  std::ifstream in(victim, std::ios::binary);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "precious");
}

TEST_CASE("a relative log file is not opened: it would land in the runtime's working directory") {
  wincni::test::ScratchDir dir;
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  Environment env = env_for("ADD");
  env.set("WINCNI_LOG_FILE", "relative.log");
  env.set("WINCNI_LOG_STDERR", "warn");
  const Run added = run(spec_with_add(), env, kConfig);
  std::filesystem::current_path(cwd);
  CHECK(added.exit_code == 0);
  CHECK(added.err.find("the log file \"relative.log\" is relative: not logging to a file") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "relative.log"));
}

TEST_CASE("the log file can come from the config") {
  wincni::test::ScratchDir dir;
  const auto log_file = dir / "from-config.log";
  json config = json::parse(kConfig);
  config["logFile"] = log_file.string();
  config["logLevel"] = "error";
  PluginSpec spec = spec_with_add();
  spec.add = [](const CommandContext& ctx) {
    ctx.log().info("filtered out");
    return one_address();
  };
  REQUIRE(run(spec, env_for("ADD"), config.dump()).exit_code == 0);
  std::ifstream in(log_file, std::ios::binary);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  CHECK(content.empty());  // at level error, neither the info line nor the ok summary
  REQUIRE(run(spec, env_for("ADD"),
              R"({"name":"n","cniVersion":"1.0.0","logFile":")" + log_file.generic_string() + R"(","ipam":7})")
              .exit_code == 1);
  std::ifstream again(log_file, std::ios::binary);
  std::string after((std::istreambuf_iterator<char>(again)), {});
  CHECK(after.find("failed with code 6") != std::string::npos);
}

#ifdef _WIN32
TEST_CASE("the error mode plugin_main sets first: a crash or a missing DLL ends a plugin without a dialog") {
  const UINT before = SetErrorMode(0);
  wincni::os::fail_without_error_dialogs();
  const UINT mode = GetErrorMode();
  SetErrorMode(before);
  CHECK((mode & SEM_FAILCRITICALERRORS) != 0);
  CHECK((mode & SEM_NOGPFAULTERRORBOX) != 0);
  CHECK((mode & SEM_NOOPENFILEERRORBOX) != 0);
}
#endif
