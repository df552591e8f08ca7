#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#ifdef _WIN32
#include <windows.h>
#endif

#include "scratch_dir.hpp"
#include "test_child.hpp"
#include "wincni/os/error.hpp"
#include "wincni/os/process.hpp"

using namespace std::chrono_literals;
using nlohmann::json;
using wincni::os::Error;
using wincni::os::ProcessSpec;
using wincni::os::run_process;

namespace {

ProcessSpec child_running(const json& script) {
  ProcessSpec spec;
  spec.program = wincni::test::test_child_program();
  spec.env = {"WINCNI_TEST_SCRIPT=" + script.dump()};
  spec.timeout = 60s;  // a safety net; no test here relies on it
  return spec;
}

void set_own_env(const char* name, const char* value) {
#ifdef _WIN32
  _putenv_s(name, value);
#else
  setenv(name, value, 1);
#endif
}

}  // namespace

TEST_CASE("run_process feeds stdin and returns stdout byte for byte") {
  auto spec = child_running({{"echo_stdin", true}});
  spec.stdin_data = std::string("line one\nline two\r\n\0binary\xff", 28);
  const auto outcome = run_process(spec);
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.term_signal == 0);
  CHECK_FALSE(outcome.timed_out);
  CHECK(outcome.out == spec.stdin_data);
  CHECK(outcome.err.empty());
}

TEST_CASE("run_process keeps stdout, stderr and the exit code apart") {
  const auto outcome = run_process(child_running({{"stdout", "to out"}, {"stderr", "to err"}, {"exit", 3}}));
  CHECK(outcome.exit_code == 3);
  CHECK(outcome.out == "to out");
  CHECK(outcome.err == "to err");
  CHECK_FALSE(outcome.timed_out);
}

TEST_CASE("run_process passes arguments unchanged, including spaces, quotes and empty ones") {
  auto spec = child_running({{"record", "-"}});
  spec.args = {"plain", "with space", "with \"quotes\"", "", "trailing\\"};
  const auto outcome = run_process(spec);
  REQUIRE(outcome.exit_code == 0);
  const auto argv = json::parse(outcome.out).at("argv");
  REQUIRE(argv.size() == spec.args.size() + 1);
  for (size_t i = 0; i < spec.args.size(); ++i) CHECK(argv[i + 1] == spec.args[i]);
}

TEST_CASE("run_process gives the child exactly the environment it is told") {
  set_own_env("WINCNI_PARENT_ONLY", "leaked");
  auto spec = child_running({{"record", "-"}});
  spec.env.push_back("CNI_COMMAND=ADD");
  spec.env.push_back("");  // not an entry: on Windows it would end the block
  spec.env.push_back("WITH_EQUALS=a=b");
  const auto outcome = run_process(spec);
  REQUIRE(outcome.exit_code == 0);
  const auto env = json::parse(outcome.out).at("env");
  CHECK(env.at("CNI_COMMAND") == "ADD");
  CHECK(env.at("WITH_EQUALS") == "a=b");
  CHECK_FALSE(env.contains("WINCNI_PARENT_ONLY"));
#ifndef _WIN32
  // Windows adds SYSTEMROOT and friends that a process cannot run without.
  CHECK(env.size() == 3);
#endif
}

TEST_CASE("run_process moves megabytes through all three pipes without deadlock") {
  auto spec = child_running({{"echo_stdin", true}, {"flood", 3 << 20}});
  spec.stdin_data.assign(2 << 20, 's');
  const auto outcome = run_process(spec);
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.out.size() == (2u << 20) + (3u << 20));
  CHECK(outcome.out.compare(0, spec.stdin_data.size(), spec.stdin_data) == 0);
  CHECK(outcome.err.size() == 3u << 20);
}

namespace {

// Waits (at most 30 s) for `file` to exist.
bool appears(const std::filesystem::path& file) {
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  while (!std::filesystem::exists(file) && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(10ms);
  }
  return std::filesystem::exists(file);
}

}  // namespace

TEST_CASE("run_process takes stdin from stdin_later once the child has started") {
  wincni::test::ScratchDir dir;
  const auto started = dir / "started";
  auto spec = child_running({{"started", started.string()}, {"echo_stdin", true}});
  bool child_was_running = false;
  spec.stdin_later = [&]() -> std::optional<std::string> {
    child_was_running = appears(started);  // the child makes it before it reads stdin
    return std::string("given late");
  };
  const auto outcome = run_process(spec);
  CHECK(child_was_running);
  CHECK_FALSE(outcome.timed_out);
  CHECK_FALSE(outcome.unfed);
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.out == "given late");
}

TEST_CASE("run_process counts the limit from the start, a wait for stdin_later included") {
  auto spec = child_running({{"echo_stdin", true}});
  spec.timeout = 300ms;
  spec.stdin_later = [&]() -> std::optional<std::string> {
    std::this_thread::sleep_for(600ms);
    return std::string("too late");
  };
  const auto outcome = run_process(spec);
  CHECK(outcome.timed_out);
  CHECK(outcome.out.empty());
}

TEST_CASE("run_process ends the child unfed when stdin_later gives nothing") {
  wincni::test::ScratchDir dir;
  const auto started = dir / "started";
  const auto record = dir / "record.json";  // written once stdin has been read
  auto spec = child_running({{"started", started.string()}, {"record", record.string()}});
  spec.stdin_later = [&]() -> std::optional<std::string> {
    REQUIRE(appears(started));
    return std::nullopt;
  };
  const auto outcome = run_process(spec);
  CHECK(outcome.unfed);
  CHECK_FALSE(outcome.timed_out);
  CHECK(outcome.term_signal != 0);
  CHECK(outcome.out.empty());
  CHECK_FALSE(std::filesystem::exists(record));
}

TEST_CASE("run_process survives a child that exits without reading its stdin") {
  auto spec = child_running({{"ignore_stdin", true}, {"exit", 4}});
  spec.stdin_data.assign(16 << 20, 'z');  // far more than any pipe buffer
  const auto outcome = run_process(spec);
  CHECK(outcome.exit_code == 4);
  CHECK_FALSE(outcome.timed_out);
}

TEST_CASE("run_process kills the child at the timeout") {
  wincni::test::ScratchDir dir;
  const auto marker = dir / "marker";
  auto spec = child_running({{"sleep_ms", 1500}, {"marker", marker.string()}});
  spec.timeout = 100ms;
  const auto outcome = run_process(spec);
  CHECK(outcome.timed_out);
  CHECK(outcome.term_signal == 9);
  // Had the child survived, it would have written the marker by now.
  std::this_thread::sleep_for(2000ms);
  CHECK_FALSE(std::filesystem::exists(marker));
}

TEST_CASE("run_process kills at the timeout a child that writes without pause") {
  // Its pipes are never idle: the limit must be looked at anyway.
  auto spec = child_running({{"stream_ms", 60000}, {"ignore_stdin", true}});
  spec.timeout = 500ms;
  const auto outcome = run_process(spec);
  CHECK(outcome.timed_out);
}

TEST_CASE("run_process takes a limit beyond 49 days (2^32 ms) or for ever as such") {
  for (const auto limit : {std::chrono::milliseconds((1LL << 32) + 200), std::chrono::milliseconds::max()}) {
    auto spec = child_running({{"sleep_ms", 300}, {"stdout", "done"}});
    spec.timeout = limit;
    const auto outcome = run_process(spec);
    CHECK_FALSE(outcome.timed_out);
    CHECK(outcome.out == "done");
  }
}

TEST_CASE("run_process does not report a timeout for a child that finishes in time") {
  auto spec = child_running({{"sleep_ms", 10}, {"stdout", "done"}});
  spec.timeout = 30s;
  const auto outcome = run_process(spec);
  CHECK_FALSE(outcome.timed_out);
  CHECK(outcome.out == "done");
}

TEST_CASE("run_process reports a program that cannot start as an I/O error naming it") {
  wincni::test::ScratchDir dir;
  ProcessSpec spec;
  spec.program = (dir / wincni::test::executable_name("no-such-program")).string();
  try {
    run_process(spec);
    FAIL("run_process returned for a missing program");
  } catch (const Error& e) {
    CHECK(e.code() == wincni::os::kIoFailure);
    CHECK(e.msg().find(spec.program) != std::string::npos);
    // Absent is final: not started again (what may work a moment later is).
    CHECK(e.msg().find("attempts") == std::string::npos);
  }
}

#ifdef _WIN32
namespace {
std::size_t lines_in(const std::filesystem::path& file) {
  std::ifstream in(file);
  return static_cast<std::size_t>(std::count(std::istreambuf_iterator<char>(in), {}, '\n'));
}

// 0xC0000142 as main's return value: what the loader reports when a DLL's
// initialisation fails, before any of the program's code runs.
constexpr int kDllInitFailed = static_cast<int>(0xC0000142u);

bool under_wine() { return GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "wine_get_version") != nullptr; }
}  // namespace

TEST_CASE("run_process starts again a program whose DLLs failed to initialise, three times at most") {
  wincni::test::ScratchDir dir;
  const auto tally = dir / "tally";
  try {
    run_process(child_running({{"tally", tally.string()}, {"exit", kDllInitFailed}}));
    FAIL("run_process returned for a program that never ran");
  } catch (const Error& e) {
    CHECK(e.code() == wincni::os::kIoFailure);
    CHECK(e.msg().find("0xC0000142") != std::string::npos);
    CHECK(e.msg().find("(3 attempts)") != std::string::npos);
  }
  CHECK(lines_in(tally) == 3);
}

TEST_CASE("the attempts share the time limit: a second start gets what the first one left") {
  wincni::test::ScratchDir dir;
  const auto tally = dir / "tally";
  // Each run lasts a second and then ends as one that never ran. With 2 s
  // for all of them, the second is killed at what is left (under 1 s), where
  // a limit per attempt would have let it end and a third start.
  auto spec =
      child_running({{"tally", tally.string()}, {"sleep_ms", 1000}, {"ignore_stdin", true}, {"exit", kDllInitFailed}});
  spec.timeout = 2s;
  const auto outcome = run_process(spec);
  CHECK(outcome.timed_out);
  CHECK(lines_in(tally) == 2);
}

TEST_CASE("run_process puts the child in a job that ends it when this process ends") {
  // So a delegate never outlives the plugin that started it, however the
  // plugin ends; the child's own children are not in it (each level's job
  // holds the children that level started).
  BOOL self_in_job = TRUE;
  REQUIRE(IsProcessInJob(GetCurrentProcess(), nullptr, &self_in_job));
  if (self_in_job) {
    // The child would be in this process's job anyway: nothing to learn.
    MESSAGE("skipped: this test process runs in a job");
    return;
  }
  const auto outcome = run_process(child_running({{"record", "-"}}));
  REQUIRE(outcome.exit_code == 0);
  const json job = json::parse(outcome.out).at("job");
  REQUIRE(job.is_number());
  // Wine reads every job's limits back as 0 (it keeps them, and ends the
  // job's processes when the job closes); Windows gives what was set.
  if (!under_wine()) {
    const auto limits = job.get<unsigned long>();
    CHECK((limits & JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE) != 0);
    CHECK((limits & JOB_OBJECT_LIMIT_SILENT_BREAKAWAY_OK) != 0);
  }
}

// Run by the next test as a child of its own (skipped otherwise): starts a
// child that notes its start and then waits for a file, and ends itself
// abruptly once that child has started.
TEST_CASE("helper: a child that ends while its own child runs" * doctest::skip()) {
  const char* tally = std::getenv("WINCNI_TEST_TALLY");
  const char* release = std::getenv("WINCNI_TEST_RELEASE");
  const char* marker = std::getenv("WINCNI_TEST_MARKER");
  REQUIRE(tally != nullptr);
  REQUIRE(release != nullptr);
  REQUIRE(marker != nullptr);
  auto spec = child_running(
      {{"tally", tally}, {"ignore_stdin", true}, {"sleep_ms", 60000}, {"until", release}, {"marker", marker}});
  std::thread([spec] { run_process(spec); }).detach();
  for (int i = 0; i < 3000 && lines_in(tally) == 0; ++i) std::this_thread::sleep_for(20ms);
  ExitProcess(3);  // no cleanup of its own: Windows closes its handles, the job's among them
}

TEST_CASE("run_process's child ends with the process that started it, however that one ends") {
  wincni::test::ScratchDir dir;
  const auto tally = dir / "tally";
  const auto release = dir / "release";
  const auto marker = dir / "marker";
  std::wstring own(MAX_PATH, L'\0');
  own.resize(GetModuleFileNameW(nullptr, own.data(), static_cast<DWORD>(own.size())));
  ProcessSpec spec;
  spec.program = std::filesystem::path(own).string();
  spec.args = {"--test-case=helper: a child that ends while*", "--no-skip=true"};
  spec.env = {"WINCNI_TEST_CHILD=" + wincni::test::test_child_program(), "WINCNI_TEST_TALLY=" + tally.string(),
              "WINCNI_TEST_RELEASE=" + release.string(), "WINCNI_TEST_MARKER=" + marker.string()};
  spec.timeout = 60s;  // a safety net
  const auto outcome = run_process(spec);
  REQUIRE(outcome.exit_code == 3);
  REQUIRE(lines_in(tally) == 1);  // the grandchild had started
  // A grandchild still alive would see this within 20 ms and leave the marker.
  std::ofstream(release) << "go\n";
  std::this_thread::sleep_for(2000ms);
  CHECK_FALSE(std::filesystem::exists(marker));
}

TEST_CASE("run_process keeps the status 0xC0000142 of a program that printed something: it ran") {
  wincni::test::ScratchDir dir;
  const auto tally = dir / "tally";
  const auto outcome =
      run_process(child_running({{"tally", tally.string()}, {"stderr", "ran"}, {"exit", kDllInitFailed}}));
  CHECK(outcome.exit_code == kDllInitFailed);
  CHECK(outcome.err == "ran");
  CHECK(lines_in(tally) == 1);
}
#endif

TEST_CASE("run_process does not search PATH for a bare program name") {
  wincni::test::ScratchDir on_path;
  const auto name = wincni::test::executable_name("wincni-only-on-path");
  std::filesystem::copy_file(wincni::test::test_child_program(), on_path / name);
  ProcessSpec spec;
  spec.program = name;
  spec.env = {"PATH=" + on_path.path().string()};
  CHECK_THROWS_AS(run_process(spec), Error);
  // Nor this process's PATH (where CreateProcess would look).
  const char* own_path = std::getenv("PATH");
  const std::string saved = own_path != nullptr ? own_path : "";
  set_own_env("PATH", on_path.path().string().c_str());
  CHECK_THROWS_AS(run_process(spec), Error);
  set_own_env("PATH", saved.c_str());
  spec.program = (on_path / name).string();
  CHECK(run_process(spec).exit_code == 0);
}

TEST_CASE("run_process can run from several threads at once") {
  std::vector<std::string> outs(4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < outs.size(); ++i) {
    threads.emplace_back([&outs, i] {
      auto spec = child_running({{"echo_stdin", true}});
      spec.stdin_data = "thread " + std::to_string(i);
      outs[i] = run_process(spec).out;
    });
  }
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < outs.size(); ++i) CHECK(outs[i] == "thread " + std::to_string(i));
}

#ifndef _WIN32
TEST_CASE("run_process returns when the child exits even if a grandchild keeps its stdout open") {
  ProcessSpec spec;
  spec.program = "/bin/sh";
  // The background sleep inherits stdout and stderr and outlives the test.
  spec.args = {"-c", "sleep 120 & echo done"};
  spec.env = {"PATH=/bin:/usr/bin"};
  const auto outcome = run_process(spec);
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.out == "done\n");
}
#endif

#ifndef _WIN32
TEST_CASE("run_process ends, with an error, when the child's exit status is collected elsewhere") {
  // Ignoring SIGCHLD makes the kernel collect children at once: the run must
  // still end (not poll a gone child for ever) and say what it cannot know.
  struct IgnoredSigchld {
    IgnoredSigchld() { std::signal(SIGCHLD, SIG_IGN); }
    ~IgnoredSigchld() { std::signal(SIGCHLD, SIG_DFL); }
  } ignored;
  ProcessSpec spec;
  spec.program = "/bin/sh";
  spec.args = {"-c", "echo done; exit 3"};
  spec.timeout = 60s;
  try {
    run_process(spec);
    FAIL("run_process reported an exit status it could not have read");
  } catch (const Error& e) {
    CHECK(e.code() == wincni::os::kIoFailure);
    CHECK(e.msg().find("exit status") != std::string::npos);
  }
}
#endif
