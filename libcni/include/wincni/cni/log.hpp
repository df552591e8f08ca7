#pragma once
// Plugin logging. A runtime captures a plugin's stdout as the protocol answer
// and forwards little of its stderr (containerd's Windows service keeps
// none by default), so on Windows a plugin logs to a file unless told not
// to: kDefaultLogFile, size-rotated, so that the first failure on a node is
// already on record. Elsewhere nothing is written unless asked.
//
// Settings, each from the environment first, then the network config (the
// environment wins: it is the operator's override on one node, without
// editing a config that a deployment manages for every node):
//   file          WINCNI_LOG_FILE    / "logFile"   appended, one line per entry; "off": none
//   file level    WINCNI_LOG_LEVEL   / "logLevel"  error|warn|info|debug, default info
//   stderr level  WINCNI_LOG_STDERR                same levels; unset: nothing on stderr
// An unknown level name falls back to the default and is reported in the log.
//
// The file is opened with O_APPEND (FILE_APPEND_DATA on Windows) and every
// entry is one write(), so concurrent plugin processes sharing one file never
// overwrite or split each other's lines.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wincni/os/byte_streams.hpp"
#include "wincni/cni/env.hpp"

namespace wincni::cni {

enum class LogLevel { Error = 0, Warn = 1, Info = 2, Debug = 3 };

// Case-insensitive; "warning" is accepted for warn. nullopt when unknown.
std::optional<LogLevel> parse_log_level(std::string_view name);
std::string_view log_level_name(LogLevel level);  // "error", "warn", ...

// Where a plugin logs when neither WINCNI_LOG_FILE nor "logFile" says:
// on Windows C:\var\log\wincni\wincni.log (its folder made when missing);
// elsewhere nowhere.
#ifdef _WIN32
inline constexpr std::string_view kDefaultLogFile = "C:\\var\\log\\wincni\\wincni.log";
#else
inline constexpr std::string_view kDefaultLogFile = "";
#endif

struct LogSettings {
  std::string file;           // "" means no file
  bool default_file = false;  // `file` is kDefaultLogFile, which nobody asked for: its failures stay quiet
  LogLevel file_level = LogLevel::Info;
  std::optional<LogLevel> stderr_level;  // nullopt: stderr stays silent
  std::vector<std::string> problems;     // bad settings, logged as warnings once the log is open
  // Where every repair() line also goes, whatever the settings above (""
  // none): the plugins' repair journal, which hnsctl doctor shows, so that
  // what a plugin took away is on record on a node whose log is off.
  std::string repair_journal;
};

// `config` is the network config document; null or a non-object is ignored.
LogSettings resolve_log_settings(const Environment& env, const nlohmann::json& config);

class Logger {
 public:
  // A logger that writes nothing.
  Logger();
  // `err` receives the stderr share (and a note when the file cannot be
  // opened); it must outlive the logger.
  Logger(const LogSettings& settings, std::string plugin, os::ByteSink* err);
  ~Logger();
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;

  // Stamped on every line: which container and which command it is about.
  void set_invocation(std::string command, std::string container_id);

  bool enabled(LogLevel level) const;
  // One line: "<UTC time> <LEVEL> <plugin>[<pid>] <command> <container>: <message>".
  // Line breaks inside `message` are escaped so an entry stays one line.
  void write(LogLevel level, std::string_view message) const;

  template <typename... Args>
  void error(fmt::format_string<Args...> format, Args&&... args) const {
    emit(LogLevel::Error, format, std::forward<Args>(args)...);
  }
  template <typename... Args>
  void warn(fmt::format_string<Args...> format, Args&&... args) const {
    emit(LogLevel::Warn, format, std::forward<Args>(args)...);
  }
  template <typename... Args>
  void info(fmt::format_string<Args...> format, Args&&... args) const {
    emit(LogLevel::Info, format, std::forward<Args>(args)...);
  }
  template <typename... Args>
  void debug(fmt::format_string<Args...> format, Args&&... args) const {
    emit(LogLevel::Debug, format, std::forward<Args>(args)...);
  }
  // A repair that deletes or moves something (an endpoint removed, an
  // address given back): a WARN line in the log file whatever its level, and
  // in the repair journal, so that an operator can always find what a plugin
  // took away.
  template <typename... Args>
  void repair(fmt::format_string<Args...> format, Args&&... args) const {
    if (sink_) write_repair(fmt::format(format, std::forward<Args>(args)...));
  }

  // A logger that is always disabled, for contexts built without one.
  static const Logger& disabled();

 private:
  template <typename... Args>
  void emit(LogLevel level, fmt::format_string<Args...> format, Args&&... args) const {
    if (enabled(level)) write(level, fmt::format(format, std::forward<Args>(args)...));
  }

  void write_repair(std::string_view message) const;
  // A repair goes to the file whatever its level, and to the journal.
  void put(LogLevel level, std::string_view message, bool repair) const;
  void append_to_journal(const std::string& line) const;

  struct Sink;
  std::unique_ptr<Sink> sink_;
};

}  // namespace wincni::cni
