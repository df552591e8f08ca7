#pragma once
// One run of a child process, as each OS starts one best: run_process()
// (process.hpp) adds what is the same everywhere — whether to start it again.

#include <string>
#include <vector>

#include "wincni/os/process.hpp"

namespace wincni::os::platform {

// The program did not start: nothing of it ran (on Windows, also a child
// the loader ended with STATUS_DLL_INIT_FAILED before any output: almost
// certainly before its own code). `final` when starting it again cannot
// help (absent, not a program, not allowed, a bad path).
struct StartFailure {
  std::string reason;
  bool final = true;
};

// Starts spec.program (a path; a bare name means the current directory),
// feeds it stdin, collects stdout and stderr until it has exited and both are
// closed (or for a second more, when a grandchild holds them), and kills it
// at spec.timeout. Throws StartFailure when it cannot start, also when this
// process lacks what a start needs (pipes, attributes: retried); cni::Error
// when waiting for the child fails.
ProcessOutcome run_child(const ProcessSpec& spec);

// The program's path as run_child starts it: no PATH search, on any OS.
std::string without_path_search(const std::string& program);

// argv and envp as the OS's start call takes them: NULL-terminated arrays
// over strings this object owns.
class ExecArguments {
 public:
  explicit ExecArguments(const ProcessSpec& spec);
  ExecArguments(const ExecArguments&) = delete;
  ExecArguments& operator=(const ExecArguments&) = delete;

  char** argv() { return argv_.data(); }
  // The child's whole environment: an empty array, never this process's.
  char** envp() { return envp_.data(); }

 private:
  std::vector<std::string> argv_strings_;
  std::vector<std::string> env_strings_;
  std::vector<char*> argv_;
  std::vector<char*> envp_;
};

}  // namespace wincni::os::platform
