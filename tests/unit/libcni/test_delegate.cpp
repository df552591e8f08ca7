#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

#include "cni_test_helpers.hpp"
#include "scratch_dir.hpp"
#include "test_child.hpp"
#include "wincni/cni/delegate.hpp"
#include "wincni/cni/early_add.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/run_budget.hpp"

using namespace std::chrono_literals;
using nlohmann::json;
using wincni::cni::DelegateOptions;
using wincni::cni::EarlyAdd;
using wincni::cni::Environment;
using wincni::cni::Error;
using wincni::test::ScratchDir;
using wincni::test::thrown_error;

namespace {

constexpr char kPathListSeparator =
#ifdef _WIN32
    ';';
#else
    ':';
#endif

const std::string kConfig = R"({"cniVersion":"1.0.0","name":"net","type":"fake-ipam","subnet":"10.0.0.0/24"})";

// Two CNI_PATH directories; the fake plugin (wincni-test-child under another
// name) is installed where a test puts it.
struct PluginDirs {
  ScratchDir first, second;

  std::filesystem::path install(const ScratchDir& dir, const std::string& name = "fake-ipam") const {
    const auto target = dir / wincni::test::executable_name(name);
    std::filesystem::copy_file(wincni::test::test_child_program(), target);
    return target;
  }

  Environment environment(const json& script) const {
    Environment env;
    env.set("CNI_COMMAND", "ADD");
    env.set("CNI_CONTAINERID", "c0ffee");
    env.set("CNI_NETNS", "none");
    env.set("CNI_IFNAME", "eth0");
    env.set("CNI_ARGS", "IgnoreUnknown=1;K8S_POD_NAME=web-0");
    env.set("CNI_PATH", first.path().string() + kPathListSeparator + second.path().string());
    env.set("WINCNI_TEST_SCRIPT", script.dump());
    return env;
  }
};

json read_json(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return json::parse(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
}

// The fake plugin installed in the second CNI_PATH directory, writing what
// it was started with (argv, environment, stdin) to `record`.
struct RecordingPlugin {
  PluginDirs dirs;
  ScratchDir records;
  std::filesystem::path record = records / "run.json";
  Environment env = dirs.environment({{"record", record.string()}});

  RecordingPlugin() { dirs.install(dirs.second); }
  json seen() const { return read_json(record); }
};

}  // namespace

TEST_CASE("delegate_add returns the delegate's result and forwards its stderr") {
  PluginDirs dirs;
  dirs.install(dirs.second);
  const json result = {{"cniVersion", "1.0.0"},
                       {"ips", {{{"address", "10.0.0.5/24"}, {"gateway", "10.0.0.1"}}}},
                       {"routes", {{{"dst", "0.0.0.0/0"}}}}};
  wincni::os::StringSink forwarded;
  DelegateOptions options;
  options.stderr_sink = &forwarded;
  const auto got =
      wincni::cni::delegate_add("fake-ipam", kConfig, "1.0.0",
                                dirs.environment({{"stdout", result.dump()}, {"stderr", "ipam says hi\n"}}), options);
  REQUIRE(got.ips.size() == 1);
  CHECK(got.ips[0].address.str() == "10.0.0.5/24");
  REQUIRE(got.ips[0].gateway.has_value());
  CHECK(got.ips[0].gateway->str() == "10.0.0.1");
  REQUIRE(got.routes.size() == 1);
  CHECK(got.routes[0].dst.str() == "0.0.0.0/0");
  CHECK(forwarded.text == "ipam says hi\n");
}

TEST_CASE("delegate_add reads a result without cniVersion in the config's version") {
  PluginDirs dirs;
  dirs.install(dirs.first);
  const json old_result = {{"ip4", {{"ip", "10.1.0.7/16"}, {"gateway", "10.1.0.1"}}}};
  const auto got =
      wincni::cni::delegate_add("fake-ipam", kConfig, "0.2.0", dirs.environment({{"stdout", old_result.dump()}}));
  REQUIRE(got.ips.size() == 1);
  CHECK(got.ips[0].address.str() == "10.1.0.7/16");
}

TEST_CASE("delegate_add rejects stdout that is not JSON with a decoding error") {
  PluginDirs dirs;
  dirs.install(dirs.first);
  const auto e = thrown_error([&] {
    wincni::cni::delegate_add("fake-ipam", kConfig, "1.0.0", dirs.environment({{"stdout", "ok!"}}));
  });
  CHECK(e.code() == wincni::cni::kDecodingFailure);
}

TEST_CASE("a delegate's CNI error keeps its code, message and details") {
  PluginDirs dirs;
  dirs.install(dirs.first);
  const json printed = {{"cniVersion", "1.0.0"},
                        {"code", 7},
                        {"msg", "no IP addresses available in range set"},
                        {"details", "10.0.0.2-10.0.0.254"}};
  const auto env = dirs.environment({{"stdout", printed.dump()}, {"stderr", "noise"}, {"exit", 1}});
  const auto e = thrown_error([&] { wincni::cni::delegate_add("fake-ipam", kConfig, "1.0.0", env); });
  CHECK(e.code() == 7);
  CHECK(e.msg() == "no IP addresses available in range set");
  CHECK(e.details() == "10.0.0.2-10.0.0.254");

  // Go's decoder matches keys case-insensitively; plugin-specific codes pass too.
  const auto shouted = dirs.environment({{"stdout", R"({"Code":104,"Msg":"hns is busy"})"}, {"exit", 1}});
  const auto e2 = thrown_error([&] { wincni::cni::delegate_del("fake-ipam", kConfig, shouted); });
  CHECK(e2.code() == 104);
  CHECK(e2.msg() == "hns is busy");
}

TEST_CASE("a delegate that fails without a CNI error is reported with its stderr") {
  PluginDirs dirs;
  dirs.install(dirs.first);
  auto e = thrown_error([&] {
    wincni::cni::delegate_del("fake-ipam", kConfig, dirs.environment({{"stderr", "panic: boom"}, {"exit", 2}}));
  });
  CHECK(e.code() == wincni::cni::kInternal);
  CHECK(e.msg().find("fake-ipam") != std::string::npos);
  CHECK(e.msg().find("exit status 2") != std::string::npos);
  CHECK(e.msg().find("panic: boom") != std::string::npos);

  e = thrown_error([&] {
    wincni::cni::delegate_del("fake-ipam", kConfig, dirs.environment({{"stdout", "garbage"}, {"exit", 1}}));
  });
  CHECK(e.code() == wincni::cni::kInternal);
  CHECK(e.msg().find("garbage") != std::string::npos);

  e = thrown_error([&] { wincni::cni::delegate_del("fake-ipam", kConfig, dirs.environment({{"exit", 3}})); });
  CHECK(e.code() == wincni::cni::kInternal);
  CHECK(e.msg().find("no error message") != std::string::npos);
}

TEST_CASE("delegating to a plugin that is not installed names the plugin and the path") {
  PluginDirs dirs;
  const auto e = thrown_error([&] { wincni::cni::delegate_del("fake-ipam", kConfig, dirs.environment({})); });
  CHECK(e.code() == wincni::cni::kInvalidNetworkConfig);
  CHECK(e.msg().starts_with("failed to find plugin \"fake-ipam\" in path ["));
}

TEST_CASE("delegating to a path-like plugin name is refused") {
  PluginDirs dirs;
  dirs.install(dirs.first);
  const auto e = thrown_error([&] { wincni::cni::delegate_del("../fake-ipam", kConfig, dirs.environment({})); });
  CHECK(e.code() == wincni::cni::kInvalidNetworkConfig);
  CHECK(e.msg() == "invalid plugin name");
}

TEST_CASE("delegating without CNI_PATH is an environment error") {
  PluginDirs dirs;
  auto env = dirs.environment({});
  env.unset("CNI_PATH");
  const auto e = thrown_error([&] { wincni::cni::delegate_del("fake-ipam", kConfig, env); });
  CHECK(e.code() == wincni::cni::kInvalidEnvironment);
}

TEST_CASE("a delegate that runs past the timeout is killed and reported as try-again-later") {
  PluginDirs dirs;
  dirs.install(dirs.first);
  const auto marker = dirs.first / "still-alive";
  DelegateOptions options;
  options.timeout = 100ms;
  const auto env = dirs.environment({{"sleep_ms", 1500}, {"marker", marker.string()}});
  const auto e = thrown_error([&] { wincni::cni::delegate_add("fake-ipam", kConfig, "1.0.0", env, options); });
  CHECK(e.code() == wincni::cni::kTryAgainLater);
  CHECK(e.msg() == "delegate plugin fake-ipam timed out after 100 ms");
  // Had it survived the kill, it would have written the marker by now.
  std::this_thread::sleep_for(2000ms);
  CHECK_FALSE(std::filesystem::exists(marker));
}

TEST_CASE("WINCNI_DELEGATE_TIMEOUT_MS in the environment sets the timeout, unless it is no positive number") {
  PluginDirs dirs;
  dirs.install(dirs.first);
  DelegateOptions options;
  options.timeout = 100ms;
  const auto delegate_within = [&](const char* setting) {
    auto env = dirs.environment({{"sleep_ms", 300}, {"stdout", R"({"cniVersion":"1.0.0","ips":[]})"}});
    env.set("WINCNI_DELEGATE_TIMEOUT_MS", setting);
    return wincni::cni::delegate_add("fake-ipam", kConfig, "1.0.0", env, options);
  };
  // Longer than the option: the delegate's 300 ms fit.
  CHECK_NOTHROW(delegate_within("5000"));
  // Shorter than what the delegate takes.
  options.timeout = 5000ms;
  const auto e = thrown_error([&] { delegate_within("100"); });
  CHECK(e.code() == wincni::cni::kTryAgainLater);
  CHECK(e.msg() == "delegate plugin fake-ipam timed out after 100 ms");
  // Not a positive number: the option's 200 ms stand.
  options.timeout = 200ms;
  for (const char* ignored : {"0", "-5", "100ms", " 5000"}) {
    CAPTURE(ignored);
    const auto ignored_error = thrown_error([&] { delegate_within(ignored); });
    CHECK(ignored_error.msg() == "delegate plugin fake-ipam timed out after 200 ms");
  }
}

TEST_CASE("the first CNI_PATH directory holding the plugin wins") {
  PluginDirs dirs;
  ScratchDir records;
  const auto env = dirs.environment({{"record", (records / "run.json").string()}});
  const auto in_second = dirs.install(dirs.second);
  wincni::cni::delegate_del("fake-ipam", kConfig, env);
  CHECK(std::filesystem::equivalent(read_json(records / "run.json").at("argv").at(0).get<std::string>(), in_second));

  const auto in_first = dirs.install(dirs.first);
  wincni::cni::delegate_del("fake-ipam", kConfig, env);
  CHECK(std::filesystem::equivalent(read_json(records / "run.json").at("argv").at(0).get<std::string>(), in_first));
}

TEST_CASE("every verb passes the whole environment with only CNI_COMMAND replaced, and the config verbatim") {
  RecordingPlugin plugin;
  auto& env = plugin.env;
  env.set("UNRELATED_SETTING", "kept as is");

  const std::pair<const char*, std::function<void()>> verbs[] = {
      {"DEL", [&] { wincni::cni::delegate_del("fake-ipam", kConfig, env); }},
      {"CHECK", [&] { wincni::cni::delegate_check("fake-ipam", kConfig, env); }},
      {"GC", [&] { wincni::cni::delegate_gc("fake-ipam", kConfig, env); }},
      {"STATUS", [&] { wincni::cni::delegate_status("fake-ipam", kConfig, env); }},
  };
  for (const auto& row : verbs) {
    // Named copies, not structured bindings: clang 14 cannot capture those.
    const auto& verb = std::get<0>(row);
    const auto& call = std::get<1>(row);
    CAPTURE(verb);
    call();
    const auto seen = plugin.seen();
    CHECK(seen.at("stdin") == kConfig);
    const auto& child_env = seen.at("env");
    CHECK(child_env.at("CNI_COMMAND") == verb);
    for (const auto& row : env.vars()) {
      // Named copies, not structured bindings: clang 14 cannot capture those.
      const auto& name = std::get<0>(row);
      const auto& value = std::get<1>(row);
      if (name != "CNI_COMMAND") CHECK(child_env.at(name) == value);
    }
  }
  CHECK(env.get("CNI_COMMAND") == "ADD");  // the caller's environment is untouched
}

TEST_CASE("each delegate is given three quarters of its time limit as its budget") {
  RecordingPlugin plugin;
  DelegateOptions options;
  options.timeout = 4000ms;
  wincni::cni::delegate_del("fake-ipam", kConfig, plugin.env, options);
  CHECK(plugin.seen().at("env").at("WINCNI_TIME_BUDGET_MS") == "3000");

  plugin.env.set("WINCNI_DELEGATE_TIMEOUT_MS", "1000");
  wincni::cni::delegate_del("fake-ipam", kConfig, plugin.env, options);
  CHECK(plugin.seen().at("env").at("WINCNI_TIME_BUDGET_MS") == "750");

  // A limit meant as "for ever" does not overflow into a tiny budget.
  plugin.env.set("WINCNI_DELEGATE_TIMEOUT_MS", "9223372036854775807");
  wincni::cni::delegate_del("fake-ipam", kConfig, plugin.env, options);
  CHECK(plugin.seen().at("env").at("WINCNI_TIME_BUDGET_MS") == "6917529027641081856");
}

TEST_CASE("a delegate's own delegates get at most what is left of its budget") {
  const auto budget_ending_in = [](std::chrono::milliseconds left) {
    return std::to_string((wincni::cni::time_since_start() + left).count());
  };
  DelegateOptions options;
  options.timeout = 60000ms;

  // Ten seconds left: the delegate may run for at most those, and is given
  // three quarters of what was left when it started.
  RecordingPlugin plugin;
  plugin.env.set("WINCNI_TIME_BUDGET_MS", budget_ending_in(10000ms));
  wincni::cni::delegate_del("fake-ipam", kConfig, plugin.env, options);
  const auto given = std::stoll(plugin.seen().at("env").at("WINCNI_TIME_BUDGET_MS").get<std::string>());
  CHECK(given <= 7500);
  CHECK(given >= 3750);  // unless this machine stood still for five seconds

  // A second left, a delegate that takes five: killed when it is spent,
  // long before the 60 s limit.
  auto env = plugin.dirs.environment({{"sleep_ms", 5000}});
  env.set("WINCNI_TIME_BUDGET_MS", budget_ending_in(1000ms));
  const auto e = thrown_error([&] { wincni::cni::delegate_add("fake-ipam", kConfig, "1.0.0", env, options); });
  CHECK(e.code() == wincni::cni::kTryAgainLater);
  const std::string prefix = "delegate plugin fake-ipam timed out after ";
  REQUIRE(e.msg().rfind(prefix, 0) == 0);
  const auto limit = std::stoll(e.msg().substr(prefix.size()));
  CHECK(limit <= 1000);
  CHECK(limit >= 500);
}

TEST_CASE("with less than 100 ms of this process's budget left, no delegate is started") {
  RecordingPlugin plugin;
  const auto e = thrown_error([&] {
    // 99 ms from now: the delegate would be killed somewhere in its work.
    plugin.env.set("WINCNI_TIME_BUDGET_MS", std::to_string((wincni::cni::time_since_start() + 99ms).count()));
    wincni::cni::delegate_del("fake-ipam", kConfig, plugin.env);
  });
  CHECK(e.code() == wincni::cni::kTryAgainLater);
  CHECK(e.msg() ==
        "no time left to run delegate plugin fake-ipam: less than 100 ms are left of the time the plugin that "
        "started this one gave it (WINCNI_TIME_BUDGET_MS)");
  CHECK_FALSE(std::filesystem::exists(plugin.record));
  // Not a positive number: no budget, the delegate runs.
  for (const char* ignored : {"0", "-5", "soon", ""}) {
    CAPTURE(ignored);
    plugin.env.set("WINCNI_TIME_BUDGET_MS", ignored);
    CHECK_NOTHROW(wincni::cni::delegate_del("fake-ipam", kConfig, plugin.env));
  }
  CHECK(std::filesystem::exists(plugin.record));
}

namespace {

// Waits (at most 30 s) for `file` to hold `lines` lines.
bool holds_lines(const std::filesystem::path& file, std::size_t lines) {
  auto count = [&] {
    std::ifstream in(file);
    return static_cast<std::size_t>(std::count(std::istreambuf_iterator<char>(in), {}, '\n'));
  };
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  while (count() < lines && std::chrono::steady_clock::now() < give_up) std::this_thread::sleep_for(10ms);
  return count() == lines;
}

const json kEarlyResult = {{"cniVersion", "1.0.0"}, {"ips", {{{"address", "10.0.0.9/24"}}}}};

// The fake plugin where EarlyAdd finds it, telling in files when it has
// started (before reading stdin), what it read, and each run that read.
struct EarlyPlugin {
  PluginDirs dirs;
  ScratchDir records;
  std::filesystem::path started = records / "started";
  std::filesystem::path record = records / "run.json";
  std::filesystem::path tally = records / "tally";

  EarlyPlugin() { dirs.install(dirs.first); }
  Environment env() const {
    return dirs.environment({{"started", started.string()},
                             {"record", record.string()},
                             {"tally", tally.string()},
                             {"stdout", kEarlyResult.dump()}});
  }
};

}  // namespace

TEST_CASE_FIXTURE(EarlyPlugin, "EarlyAdd starts the delegate at once; add() hands it the config, gets its result") {
  EarlyAdd early("fake-ipam", "1.0.0", env());
  CHECK(holds_lines(started, 1));  // running, before any config
  const auto got = early.add(kConfig);
  REQUIRE(got.ips.size() == 1);
  CHECK(got.ips[0].address.str() == "10.0.0.9/24");
  CHECK(read_json(record)["stdin"] == kConfig);
  CHECK(holds_lines(started, 1));
}

TEST_CASE_FIXTURE(EarlyPlugin, "EarlyAdd destroyed without add() ends its delegate unfed") {
  {
    EarlyAdd early("fake-ipam", "1.0.0", env());
    REQUIRE(holds_lines(started, 1));
  }
  // The destructor waited for it: had it read a config, the record would be there.
  CHECK_FALSE(std::filesystem::exists(record));
}

TEST_CASE("EarlyAdd reports a plugin it cannot find from add(), as delegate_add does") {
  PluginDirs dirs;
  EarlyAdd early("fake-ipam", "1.0.0", dirs.environment({}));
  const auto e = thrown_error([&] { early.add(kConfig); });
  CHECK(e.code() == wincni::cni::kInvalidNetworkConfig);
  CHECK(e.msg().starts_with("failed to find plugin \"fake-ipam\" in path ["));
}

TEST_CASE_FIXTURE(EarlyPlugin, "EarlyAdd hands a config that comes after kConfigWait to a fresh delegate") {
  EarlyAdd early("fake-ipam", "1.0.0", env());
  REQUIRE(holds_lines(started, 1));
  std::this_thread::sleep_for(EarlyAdd::kConfigWait + 200ms);
  const auto got = early.add(kConfig);
  REQUIRE(got.ips.size() == 1);
  CHECK(holds_lines(started, 2));  // a second delegate
  CHECK(holds_lines(tally, 1));    // and only that one read a config
}
