#include <doctest/doctest.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "scratch_dir.hpp"
#include "wincni/os/file_lock.hpp"
#include "wincni/cni/log.hpp"

using namespace wincni::cni;
using nlohmann::json;

namespace {

// One line past the repair journal's 256 KiB: the next repair rotates it.
const std::string kJournalPastLimit(256 * 1024, 'x');

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The UTC time to the second as the log writes it, by the C library's
// calendar (the clock is the one the log reads: glibc's time() may lag it).
std::string utc_now_by_strftime() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", std::gmtime(&now));
  return text;
}

LogSettings file_settings(const std::filesystem::path& file, LogLevel level) {
  LogSettings settings;
  settings.file = file.string();
  settings.file_level = level;
  return settings;
}

}  // namespace

TEST_CASE("level names") {
  CHECK(parse_log_level("debug") == LogLevel::Debug);
  CHECK(parse_log_level("INFO") == LogLevel::Info);
  CHECK(parse_log_level("Warning") == LogLevel::Warn);
  CHECK(parse_log_level("warn") == LogLevel::Warn);
  CHECK(parse_log_level("error") == LogLevel::Error);
  CHECK_FALSE(parse_log_level("verbose").has_value());
  CHECK_FALSE(parse_log_level("").has_value());
  CHECK(log_level_name(LogLevel::Warn) == "warn");
}

TEST_CASE("settings: the default file (Windows only), config keys, the environment wins, \"off\"") {
  const LogSettings none = resolve_log_settings(Environment(), json::object());
  CHECK(none.file == kDefaultLogFile);
  CHECK(none.default_file == !kDefaultLogFile.empty());
#ifdef _WIN32
  CHECK(none.file == "C:\\var\\log\\wincni\\wincni.log");
#else
  CHECK(none.file.empty());
#endif
  CHECK(none.file_level == LogLevel::Info);
  CHECK_FALSE(none.stderr_level.has_value());
  CHECK(none.problems.empty());

  const json config = {{"name", "n"}, {"LogFile", "/var/log/cni.log"}, {"logLevel", "debug"}};
  const LogSettings from_config = resolve_log_settings(Environment(), config);
  CHECK(from_config.file == "/var/log/cni.log");
  CHECK(from_config.file_level == LogLevel::Debug);

  const LogSettings overridden = resolve_log_settings(
      Environment(
          {{"WINCNI_LOG_FILE", "/tmp/override.log"}, {"WINCNI_LOG_LEVEL", "error"}, {"WINCNI_LOG_STDERR", "warn"}}),
      config);
  CHECK(overridden.file == "/tmp/override.log");
  CHECK(overridden.file_level == LogLevel::Error);
  CHECK(overridden.stderr_level == LogLevel::Warn);
  CHECK_FALSE(overridden.default_file);

  // "off", in either place, in any case: no file, not even the default.
  const LogSettings off_by_env =
      resolve_log_settings(Environment(std::map<std::string, std::string>{{"WINCNI_LOG_FILE", "OFF"}}), config);
  const LogSettings off_by_config = resolve_log_settings(Environment(), json{{"logFile", "off"}});
  for (const LogSettings* off : {&off_by_env, &off_by_config}) {
    CHECK(off->file.empty());
    CHECK_FALSE(off->default_file);
  }

  // Settings of the wrong type or an unknown level never break a command.
  const LogSettings odd = resolve_log_settings(Environment(), json{{"logFile", 3}, {"logLevel", "chatty"}});
  CHECK(odd.file == kDefaultLogFile);
  CHECK(odd.file_level == LogLevel::Info);
  REQUIRE(odd.problems.size() == 1);
  CHECK(odd.problems[0].find("chatty") != std::string::npos);
  CHECK(resolve_log_settings(Environment(), json(nullptr)).file == kDefaultLogFile);
}

#ifdef _WIN32
TEST_CASE("Windows: the default file, its folder made by the first plugin, quiet when it cannot be written") {
  wincni::os::StringSink err;
  const std::string marker = "default-log-test-" + std::to_string(std::time(nullptr));
  {
    Logger logger(resolve_log_settings(Environment(), json::object()), "test-plugin", &err);
    logger.warn("{}", marker);
  }
  std::ifstream in{std::string(kDefaultLogFile)};
  REQUIRE(in);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  CHECK(text.find(marker) != std::string::npos);
  CHECK(err.text.empty());
}
#endif

TEST_CASE("a disabled logger writes nothing anywhere") {
  wincni::os::StringSink err;
  {
    Logger logger(LogSettings{}, "test-plugin", &err);
    CHECK_FALSE(logger.enabled(LogLevel::Error));
    logger.error("nothing {}", 1);
  }
  CHECK(err.text.empty());
  CHECK_FALSE(Logger::disabled().enabled(LogLevel::Error));
  Logger::disabled().error("ignored");
}

TEST_CASE("the file gets one line per entry, filtered by level, appended") {
  wincni::test::ScratchDir dir;
  const auto file = dir / "cni.log";
  { std::ofstream(file, std::ios::binary) << "earlier line\n"; }
  const std::string before = utc_now_by_strftime();
  {
    Logger logger(file_settings(file, LogLevel::Info), "win-bridge", nullptr);
    logger.set_invocation("ADD", "abc123");
    CHECK(logger.enabled(LogLevel::Info));
    CHECK_FALSE(logger.enabled(LogLevel::Debug));
    logger.info("endpoint {} created", "ep1");
    logger.debug("not written");
    logger.error("two\nlines");
  }
  const auto lines = lines_of(file);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "earlier line");
  // "<UTC time> <LEVEL> <plugin>[<pid>] <command> <container>: <message>"
  CHECK(lines[1].size() > 24);
  CHECK(lines[1][4] == '-');
  CHECK(lines[1][10] == 'T');
  CHECK(lines[1][23] == 'Z');
  // Same-width text, so in time order as strings.
  const std::string stamped = lines[1].substr(0, 19);
  CHECK(before <= stamped);
  CHECK(stamped <= utc_now_by_strftime());
  CHECK(lines[1].find(" INFO  win-bridge[") != std::string::npos);
  CHECK(lines[1].find("] ADD abc123: endpoint ep1 created") != std::string::npos);
  CHECK(lines[2].find(" ERROR win-bridge[") != std::string::npos);
  CHECK(lines[2].find(": two\\nlines") != std::string::npos);
}

TEST_CASE("stderr gets entries only at its own level") {
  wincni::os::StringSink err;
  LogSettings settings;
  settings.stderr_level = LogLevel::Warn;
  Logger logger(settings, "flannel", &err);
  logger.info("quiet");
  logger.warn("loud");
  CHECK(err.text.find("quiet") == std::string::npos);
  CHECK(err.text.find("WARN  flannel[") != std::string::npos);
  CHECK(err.text.find("- -: loud") != std::string::npos);  // no invocation set yet
}

TEST_CASE("settings problems are logged as warnings once the log is open") {
  wincni::test::ScratchDir dir;
  LogSettings settings = file_settings(dir / "cni.log", LogLevel::Info);
  settings.problems.push_back("unknown log level \"chatty\"");
  { Logger logger(settings, "p", nullptr); }
  const auto lines = lines_of(dir / "cni.log");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("WARN") != std::string::npos);
  CHECK(lines[0].find("chatty") != std::string::npos);
}

TEST_CASE("a log file that cannot be opened is reported on stderr, once") {
  wincni::test::ScratchDir dir;
  wincni::os::StringSink err;
  Logger logger(file_settings(dir / "missing-dir" / "cni.log", LogLevel::Debug), "p", &err);
  CHECK(err.text.find("cannot open log file") != std::string::npos);
  CHECK_FALSE(logger.enabled(LogLevel::Error));
  logger.error("goes nowhere");
}

TEST_CASE("concurrent loggers on one file never split or lose lines") {
  wincni::test::ScratchDir dir;
  const auto file = dir / "shared.log";
  constexpr int kWriters = 4, kLines = 200;
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      Logger logger(file_settings(file, LogLevel::Info), "writer" + std::to_string(w), nullptr);
      for (int i = 0; i < kLines; ++i) logger.info("line {} {}", i, std::string(100, 'x'));
    });
  }
  for (auto& t : writers) t.join();
  const auto lines = lines_of(file);
  CHECK(lines.size() == kWriters * kLines);
  for (const auto& line : lines) {
    CHECK(line.size() > 100);
    CHECK(line.substr(line.size() - 100) == std::string(100, 'x'));
  }
}

TEST_CASE("repairs go to the journal whatever the log settings; nothing else does; a big journal is rotated") {
  wincni::test::ScratchDir dir;
  const auto journal = dir / "data" / "repairs.log";  // its folder is made when the first repair comes
  LogSettings settings;
  settings.repair_journal = journal.string();
  {
    Logger logger(settings, "win-bridge", nullptr);
    logger.set_invocation("ADD", "podB");
    logger.error("not a repair");
    CHECK_FALSE(std::filesystem::exists(journal));
    logger.repair("gave {} back to {}", "10.0.0.3", "podA");
  }
  auto lines = lines_of(journal);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find(" WARN  win-bridge[") != std::string::npos);
  CHECK(lines[0].find("] ADD podB: gave 10.0.0.3 back to podA") != std::string::npos);

  { std::ofstream(journal, std::ios::binary | std::ios::app) << kJournalPastLimit << '\n'; }
  Logger(settings, "flannel", nullptr).repair("removed {}", "a scratch file");
  CHECK(std::filesystem::exists(dir / "data" / "repairs.log.1"));
  lines = lines_of(journal);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("removed a scratch file") != std::string::npos);
}

TEST_CASE("plugins repairing at once rotate the journal once and lose no line") {
  wincni::test::ScratchDir dir;
  const auto journal = dir / "repairs.log";
  LogSettings settings;
  settings.repair_journal = journal.string();
  { std::ofstream(journal, std::ios::binary) << kJournalPastLimit << '\n'; }
  constexpr int kPlugins = 8;
  std::vector<std::thread> plugins;
  for (int i = 0; i < kPlugins; ++i) {
    plugins.emplace_back([&settings, i] {
      Logger logger(settings, "win-bridge", nullptr);
      logger.set_invocation("ADD", "pod" + std::to_string(i));
      for (int n = 0; n < 5; ++n) logger.repair("repair {}", n);
    });
  }
  for (auto& plugin : plugins) plugin.join();
  // The older history is what moved aside, and every new line is in the
  // journal.
  const auto older = lines_of(dir / "repairs.log.1");
  REQUIRE(older.size() == 1);
  CHECK(older[0] == kJournalPastLimit);
  CHECK(lines_of(journal).size() == kPlugins * 5);
}

TEST_CASE("a repair waits its turn on the journal's lock; one that cannot get it appends without rotating") {
  wincni::test::ScratchDir dir;
  const auto journal = dir / "repairs.log";
  LogSettings settings;
  settings.repair_journal = journal.string();
  { std::ofstream(journal, std::ios::binary) << kJournalPastLimit << '\n'; }
  {
    // Another plugin rotating it all this time.
    wincni::os::FileLock other((dir / "repairs.log.lock").string());
    Logger(settings, "win-bridge", nullptr).repair("removed {}", "an endpoint");
  }
  CHECK_FALSE(std::filesystem::exists(dir / "repairs.log.1"));
  auto lines = lines_of(journal);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].find("removed an endpoint") != std::string::npos);
  // Its turn come, the next one rotates.
  Logger(settings, "win-bridge", nullptr).repair("removed {}", "another");
  CHECK(std::filesystem::exists(dir / "repairs.log.1"));
  lines = lines_of(journal);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("removed another") != std::string::npos);
}
