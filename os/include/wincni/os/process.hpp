#pragma once
// Runs a child process with an explicit environment, feeds it stdin, collects
// stdout and stderr, and kills it after a timeout: posix_spawn on POSIX,
// CreateProcessW on Windows (os/src/platform/child_process_*).

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace wincni::os {

struct ProcessSpec {
  std::string program;            // a path; no PATH search
  std::vector<std::string> args;  // argv[1..]
  std::vector<std::string> env;   // "K=V" entries: the child's whole environment
  std::string stdin_data;
  std::chrono::milliseconds timeout{0};  // 0: no limit
  // When set, stdin is what this returns instead of stdin_data. It is called
  // on the calling thread once the child has started, so that the child's
  // start overlaps whatever it waits for. The timeout still counts from the
  // start, the wait included: a delegate's budget (run_budget.hpp) is
  // handed to it when it starts, and its caller's limit runs meanwhile too.
  // Stdin that comes past the limit is not written: the child is killed
  // (`timed_out`).
  // nullopt ends the child unfed: killed (`unfed`, not `timed_out`), and
  // not started again. A further start (see run_process) calls it again.
  std::function<std::optional<std::string>()> stdin_later;
};

struct ProcessOutcome {
  int exit_code = 0;
  int term_signal = 0;
  bool timed_out = false;
  bool unfed = false;  // killed because stdin_later gave nothing
  std::string out;
  std::string err;
};

// Throws cni::Error(kIoFailure) when the program cannot be started. A start
// that may work a moment later is tried again, three times in all, within
// spec.timeout (child_process.hpp says which).
ProcessOutcome run_process(const ProcessSpec& spec);

}  // namespace wincni::os
