#include "wincni/cni/log.hpp"

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "wincni/os/append_file.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/os/file_lock.hpp"
#include "wincni/os/private_files.hpp"
#include "wincni/os/process_id.hpp"
#include "wincni/cni/json_keys.hpp"

namespace wincni::cni {

namespace {

// By the calendar arithmetic of <chrono>, not fmt's strftime-like chrono
// formatting: that goes through std::locale, whose facets were a large part
// of every .exe.
std::string utc_timestamp() {
  using namespace std::chrono;
  const auto now = floor<milliseconds>(system_clock::now());
  const auto day = floor<days>(now);
  const year_month_day date{day};
  const hh_mm_ss of_day{now - day};
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", static_cast<int>(date.year()),
                     static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()), of_day.hours().count(),
                     of_day.minutes().count(), of_day.seconds().count(), of_day.subseconds().count());
}

std::string one_line(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  for (char c : message) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += c;
    }
  }
  return out;
}

// A level from the environment, else from the config, else `fallback`.
std::optional<LogLevel> pick_level(const std::optional<std::string>& from_env, const nlohmann::json* from_config,
                                   std::string_view what, std::vector<std::string>& problems) {
  std::optional<std::string> name = from_env;
  if (!name && from_config != nullptr && from_config->is_string()) name = from_config->get<std::string>();
  if (!name || name->empty()) return std::nullopt;
  std::optional<LogLevel> level = parse_log_level(*name);
  if (!level) problems.push_back(fmt::format("unknown {} \"{}\"; expected error, warn, info or debug", what, *name));
  return level;
}

}  // namespace

std::optional<LogLevel> parse_log_level(std::string_view name) {
  for (LogLevel level : {LogLevel::Error, LogLevel::Warn, LogLevel::Info, LogLevel::Debug}) {
    if (equals_ignore_case(name, log_level_name(level))) return level;
  }
  if (equals_ignore_case(name, "warning")) return LogLevel::Warn;
  return std::nullopt;
}

std::string_view log_level_name(LogLevel level) {
  switch (level) {
    case LogLevel::Error:
      return "error";
    case LogLevel::Warn:
      return "warn";
    case LogLevel::Info:
      return "info";
    case LogLevel::Debug:
      return "debug";
  }
  return "unknown";
}

LogSettings resolve_log_settings(const Environment& env, const nlohmann::json& config) {
  LogSettings settings;
  std::optional<std::string> chosen;
  if (auto file = env.get("WINCNI_LOG_FILE"); file && !file->empty()) {
    chosen = *file;
  } else if (const nlohmann::json* key = find_key(config, "logFile"); key != nullptr && key->is_string()) {
    chosen = key->get<std::string>();
  }
  if (!chosen) {
    settings.file = kDefaultLogFile;
    settings.default_file = !settings.file.empty();
  } else if (!equals_ignore_case(*chosen, "off")) {
    settings.file = std::move(*chosen);
  }
  if (settings.file.find('\0') != std::string::npos) {
    // The OS would cut the path at the NUL and log to some other file.
    settings.problems.push_back("the log file's path contains a NUL character; not logging to a file");
    settings.file.clear();
  } else if (!settings.file.empty() && !os::private_files::starts_at_root(settings.file)) {
    // Relative to whatever folder the runtime runs in (System32 for a
    // Windows service).
    settings.problems.push_back(fmt::format(
        "the log file \"{}\" is relative: not logging to a file (give a path from the root)", settings.file));
    settings.file.clear();
  }
  if (auto level =
          pick_level(env.get("WINCNI_LOG_LEVEL"), find_key(config, "logLevel"), "log level", settings.problems)) {
    settings.file_level = *level;
  }
  settings.stderr_level = pick_level(env.get("WINCNI_LOG_STDERR"), nullptr, "stderr log level", settings.problems);
  return settings;
}

// A log file past this size is moved aside (to <file>.1) when a plugin
// opens it.
constexpr std::uint64_t kMaxLogBytes = 10 * 1024 * 1024;
// The repair journal's: a repair is rare, and doctor reads the whole file.
constexpr std::uint64_t kMaxJournalBytes = 256 * 1024;
constexpr std::chrono::milliseconds kJournalTurnLimit{2000};

// `path` opened for appending, first moved aside to <path>.1 when it is
// past `max_bytes`: rotated by size, one old file kept, since nothing else
// ever trims it (containerd polls STATUS every 5 s on every node).
std::unique_ptr<os::AppendFile> open_rotated(const std::string& path, std::uint64_t max_bytes) {
  auto file = std::make_unique<os::AppendFile>(path);
  if (file->is_open() && file->size() > max_bytes) {
    file.reset();
    // Another plugin may have rotated it since this one looked: only a file
    // still past the limit goes (two rotating in the same instant can still
    // cost the older file).
    if (os::AppendFile(path).size() > max_bytes) {
      try {
        os::private_files::move_over(path, path + ".1");
      } catch (const Error&) {
        // Another plugin moved it first; append to whatever is there now.
      }
    }
    file = std::make_unique<os::AppendFile>(path);
  }
  return file;
}

struct Logger::Sink {
  std::string plugin;
  std::string command = "-";
  std::string container_id = "-";
  unsigned long pid = os::current_process_id();
  std::optional<LogLevel> file_level;  // set only while the file is open
  std::optional<LogLevel> stderr_level;
  os::ByteSink* err = nullptr;
  std::unique_ptr<os::AppendFile> file;
  std::string journal_path;  // opened at the first repair
  std::mutex mutex;

  bool open(const std::string& path, bool by_default) {
    file = open_rotated(path, kMaxLogBytes);
    if (!file->is_open() && by_default) {
      // The first plugin on a node makes the default's folder.
      try {
        os::private_files::create_private_directories(parent_of(path));
        file = open_rotated(path, kMaxLogBytes);
      } catch (const Error&) {
      }
    }
    if (file->is_open()) return true;
    // A file nobody asked for that cannot be written is no news for the runtime.
    if (err != nullptr && !by_default) {
      err->write(fmt::format("{}: cannot open log file {}: {}\n", plugin, path, file->error()));
    }
    file.reset();
    return false;
  }

  static std::string parent_of(const std::string& path) {
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
  }
};

Logger::Logger() = default;

Logger::Logger(const LogSettings& settings, std::string plugin, os::ByteSink* err) : sink_(std::make_unique<Sink>()) {
  sink_->plugin = std::move(plugin);
  sink_->err = err;
  sink_->stderr_level = err != nullptr ? settings.stderr_level : std::nullopt;
  if (!settings.file.empty() && sink_->open(settings.file, settings.default_file)) {
    sink_->file_level = settings.file_level;
  }
  sink_->journal_path = settings.repair_journal;
  for (const std::string& problem : settings.problems) write(LogLevel::Warn, problem);
}

Logger::~Logger() = default;

void Logger::set_invocation(std::string command, std::string container_id) {
  if (!sink_) return;
  sink_->command = command.empty() ? "-" : std::move(command);
  sink_->container_id = container_id.empty() ? "-" : std::move(container_id);
}

bool Logger::enabled(LogLevel level) const {
  if (!sink_) return false;
  return (sink_->file_level && level <= *sink_->file_level) || (sink_->stderr_level && level <= *sink_->stderr_level);
}

void Logger::write(LogLevel level, std::string_view message) const { put(level, message, false); }

void Logger::write_repair(std::string_view message) const { put(LogLevel::Warn, message, true); }

void Logger::put(LogLevel level, std::string_view message, bool repair) const {
  if (!sink_) return;
  const bool to_file = sink_->file_level && (repair || level <= *sink_->file_level);
  const bool to_stderr = sink_->stderr_level && level <= *sink_->stderr_level;
  const bool to_journal = repair && !sink_->journal_path.empty();
  if (!to_file && !to_stderr && !to_journal) return;
  std::string level_text(log_level_name(level));
  for (char& c : level_text) c = static_cast<char>(c - 'a' + 'A');
  const std::string line = fmt::format("{} {:<5} {}[{}] {} {}: {}\n", utc_timestamp(), level_text, sink_->plugin,
                                       sink_->pid, sink_->command, sink_->container_id, one_line(message));
  std::lock_guard lock(sink_->mutex);
  if (to_file) sink_->file->append(line);
  if (to_stderr) sink_->err->write(line);
  if (to_journal) append_to_journal(line);
}

// Best effort, as every log line: a repair is never undone because its
// record could not be written. The folder is made private when missing, and
// one someone else may replace (a squatted %ProgramData%\wincni) is not
// written in.
void Logger::append_to_journal(const std::string& line) const {
  const std::string& path = sink_->journal_path;
  const auto slash = path.find_last_of("/\\");
  try {
    if (slash != std::string::npos && slash > 0) {
      os::private_files::create_private_directories(path.substr(0, slash));
      os::private_files::require_administrators_only(path.substr(0, slash));
    }
  } catch (const Error&) {
    return;
  }
  // Plugins that repair at once take turns, so that two never rotate the
  // journal together (one would move the other's fresh file over the older
  // history). One that cannot get its turn soon appends without rotating.
  std::optional<os::FileLock> turn;
  try {
    turn.emplace(path + ".lock", kJournalTurnLimit);
  } catch (const Error&) {
    os::AppendFile journal(path);
    if (journal.is_open()) journal.append(line);
    return;
  }
  const auto journal = open_rotated(path, kMaxJournalBytes);
  if (journal->is_open()) journal->append(line);
}

const Logger& Logger::disabled() {
  static const Logger logger;
  return logger;
}

}  // namespace wincni::cni
