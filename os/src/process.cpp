// run_process: what is the same on every OS — the program named by a path,
// and a start that failed for a moment tried again. Each OS's run of one
// child is in platform/child_process_*.cpp.

#include "wincni/os/process.hpp"

#include <chrono>
#include <optional>
#include <string_view>
#include <thread>

#include <fmt/format.h>

#include "child_process.hpp"
#include "wincni/os/error.hpp"

namespace wincni::os {
namespace {

bool has_directory_part(const std::string& program) {
#ifdef _WIN32
  return program.find_first_of("/\\:") != std::string::npos;
#else
  return program.find('/') != std::string::npos;
#endif
}

constexpr int kStartAttempts = 3;

std::vector<char*> c_array(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

// The contract is "a path", so a bare name means the file in the current
// directory on both platforms (CreateProcess and posix_spawnp would search
// PATH for a bare name).
std::string platform::without_path_search(const std::string& program) {
  return has_directory_part(program) ? program : "./" + program;
}

platform::ExecArguments::ExecArguments(const ProcessSpec& spec) : argv_strings_{spec.program}, env_strings_(spec.env) {
  argv_strings_.insert(argv_strings_.end(), spec.args.begin(), spec.args.end());
  argv_ = c_array(argv_strings_);
  envp_ = c_array(env_strings_);
}

// Starting a program can fail for a moment and then work: Windows refuses
// an .exe a scanner has open (a sharing violation) and ends one whose DLLs
// could not initialise before its code ran, Wine's CreateProcess under load
// fails now and then with an unexpected code, and Linux says EAGAIN
// or ETXTBSY. Nothing ran, so starting it again is safe. The attempts share
// spec.timeout: a caller's limit holds however many there were.
ProcessOutcome run_process(const ProcessSpec& spec) {
  using Clock = std::chrono::steady_clock;
  // Elapsed time against the limit, not a deadline: now() plus a limit meant
  // as for ever (INT64_MAX ms) would overflow.
  const Clock::time_point started = Clock::now();
  std::optional<ProcessSpec> later;  // a copy with what is left of the limit, made only for a retry
  for (int attempt = 1;; ++attempt) {
    try {
      return platform::run_child(later ? *later : spec);
    } catch (const platform::StartFailure& failed) {
      auto give_up = [&](std::string_view why) {
        return Error(kIoFailure, fmt::format("cannot start \"{}\": {}{}{}", spec.program, failed.reason,
                                             attempt > 1 ? fmt::format(" ({} attempts)", attempt) : "", why));
      };
      if (failed.final || attempt == kStartAttempts) throw give_up("");
      std::this_thread::sleep_for(std::chrono::milliseconds(50 * attempt));
      if (spec.timeout.count() > 0) {
        const auto left = spec.timeout - std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
        if (left.count() <= 0) throw give_up("; no time left to try again");
        if (!later) later = spec;
        later->timeout = left;
      }
    }
  }
}

}  // namespace wincni::os
