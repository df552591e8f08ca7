// One child on POSIX: posix_spawn, then poll() over its three pipes and a
// pidfd (its exit) until everything is in. glibc's posix_spawn starts the
// child with clone(CLONE_VM | CLONE_VFORK): no copy of this process's page
// tables, and no write fault afterwards on every page the copy shared. libuv
// (1.44, Debian's) forks on Linux: starting host-local from a process with a
// 3 MB heap took 0.72 ms with it and 0.48 ms with posix_spawn
// (docs/benchmarks.md, "What the last run shows").

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <limits>
#include <optional>
#include <pthread.h>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "../child_process.hpp"
#include "descriptor_posix.hpp"
#include "wincni/os/error.hpp"

namespace wincni::os::platform {
namespace {

using Clock = std::chrono::steady_clock;

// Once the child has exited, a grandchild that inherited its stdout or stderr
// could keep those pipes open for ever; we read on for this long, then stop.
constexpr std::chrono::milliseconds kDrainAfterExit{1000};

// Without a pidfd (a kernel before 5.3, or a sandbox that forbids it) the
// child's exit is looked for this often while its pipes are still open.
constexpr std::chrono::milliseconds kExitPollWithoutPidfd{10};

// The most reads of one output between two looks at the deadlines.
constexpr int kReadsPerPass = 16;

// strerror's text, lower-cased as libuv's and Go's are ("no such file or
// directory").
std::string error_text(int error) {
  std::string text = std::generic_category().message(error);
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') text[0] = static_cast<char>(text[0] - 'A' + 'a');
  return text;
}

// What this process lacked to start a child (descriptors, memory): nothing
// ran, and it may work a moment later.
[[noreturn]] void cannot_prepare(const char* what, int error) {
  throw StartFailure{fmt::format("{}: {}", what, error_text(error)), /*final=*/false};
}

void require(int rc, const char* what) {
  if (rc != 0) cannot_prepare(what, rc);
}

struct Pipe {
  Descriptor read_end;
  Descriptor write_end;
};

// Both ends close on exec: a child started by another thread meanwhile
// inherits neither, so each child sees its own pipes close.
Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) cannot_prepare("cannot create a pipe", errno);
  return Pipe{Descriptor(fds[0]), Descriptor(fds[1])};
}

void make_non_blocking(const Descriptor& fd) {
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags | O_NONBLOCK) != 0) {
    throw Error(kIoFailure, fmt::format("cannot make a child's pipe non-blocking: {}", error_text(errno)));
  }
}

// Writing stdin to a child that exits without reading it raises SIGPIPE, whose
// default action would end *this* process. The signal is blocked for the
// calling thread only (no process-wide disposition change behind the caller's
// back) and a SIGPIPE raised meanwhile is consumed before the mask is restored.
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&pipe_only_);
    sigaddset(&pipe_only_, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_only_, &previous_);
  }
  ~SigpipeBlock() {
    if (!was_pending_) {
      const timespec no_wait{0, 0};
      while (sigtimedwait(&pipe_only_, nullptr, &no_wait) == SIGPIPE) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  sigset_t pipe_only_;
  sigset_t previous_;
  bool was_pending_ = false;
};

// posix_spawn's attributes: the child starts with no signal blocked and every
// signal at its default action, whatever this process blocks or ignores (a
// plugin ignores SIGPIPE, and a delegate must not inherit that).
class SpawnAttributes {
 public:
  SpawnAttributes() {
    require(posix_spawnattr_init(&attributes_), "cannot prepare its attributes");
    sigset_t none;
    sigemptyset(&none);
    sigset_t all;
    sigfillset(&all);
    try {
      require(posix_spawnattr_setsigmask(&attributes_, &none), "cannot prepare its signal mask");
      require(posix_spawnattr_setsigdefault(&attributes_, &all), "cannot prepare its signal actions");
      require(posix_spawnattr_setflags(&attributes_, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF),
              "cannot prepare its attributes");
    } catch (...) {
      posix_spawnattr_destroy(&attributes_);
      throw;
    }
  }
  ~SpawnAttributes() { posix_spawnattr_destroy(&attributes_); }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;
  const posix_spawnattr_t* get() const { return &attributes_; }

 private:
  posix_spawnattr_t attributes_;
};

// The child's standard descriptors: the three pipes' child ends.
class StandardPipes {
 public:
  // A failed step would leave the child this process's own descriptor there
  // (a delegate writing into the plugin's result), so each one is checked.
  StandardPipes(const Descriptor& in, const Descriptor& out, const Descriptor& err) {
    require(posix_spawn_file_actions_init(&actions_), "cannot prepare its standard descriptors");
    try {
      for (const auto& [pipe, standard] : {std::pair{&in, 0}, std::pair{&out, 1}, std::pair{&err, 2}}) {
        require(posix_spawn_file_actions_adddup2(&actions_, pipe->get(), standard),
                "cannot prepare its standard descriptors");
      }
    } catch (...) {
      posix_spawn_file_actions_destroy(&actions_);
      throw;
    }
  }
  ~StandardPipes() { posix_spawn_file_actions_destroy(&actions_); }
  StandardPipes(const StandardPipes&) = delete;
  StandardPipes& operator=(const StandardPipes&) = delete;
  const posix_spawn_file_actions_t* get() const { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

// What says the program cannot start at all; anything else (EAGAIN, ENOMEM,
// ETXTBSY while an installer writes it) may work a moment later.
bool is_final(int error) {
  for (int final_error : {ENOENT, EACCES, EPERM, ENOEXEC, EINVAL, ENOTDIR, EISDIR, ENAMETOOLONG, E2BIG, ELOOP}) {
    if (error == final_error) return true;
  }
  return false;
}

class ChildRun {
 public:
  explicit ChildRun(const ProcessSpec& spec) : spec_(spec) {}
  ChildRun(const ChildRun&) = delete;
  ChildRun& operator=(const ChildRun&) = delete;

  // A child still running when the run ends early (an exception) is killed
  // and reaped: no process outlives the call, and no zombie stays.
  ~ChildRun() {
    if (pid_ > 0 && !exited_) {
      kill_child();
      int status = 0;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }

  ProcessOutcome run() {
    start();
    take_stdin();
    while (!done()) wait_and_serve();
    if (status_lost_) {
      throw Error(kIoFailure, fmt::format("\"{}\" ended, but how is not known: its exit status was collected "
                                          "elsewhere (SIGCHLD ignored, or a wait for any child)",
                                          spec_.program));
    }
    return std::move(outcome_);
  }

 private:
  void start() {
    Pipe in = make_pipe();
    Pipe out = make_pipe();
    Pipe err = make_pipe();
    std::string file = without_path_search(spec_.program);
    ExecArguments arguments(spec_);
    {
      SpawnAttributes attributes;
      StandardPipes pipes(in.read_end, out.write_end, err.write_end);
      if (const int rc =
              posix_spawn(&pid_, file.c_str(), pipes.get(), attributes.get(), arguments.argv(), arguments.envp());
          rc != 0) {
        pid_ = -1;
        throw StartFailure{error_text(rc), is_final(rc)};
      }
    }
    stdin_ = std::move(in.write_end);
    stdout_ = std::move(out.read_end);
    stderr_ = std::move(err.read_end);
    for (const Descriptor* fd : {&stdin_, &stdout_, &stderr_}) make_non_blocking(*fd);
#ifdef SYS_pidfd_open
    // Linux 5.3 and later: readable once the child has exited.
    pidfd_ = Descriptor(static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0)));
#endif
    // A limit past the clock's range (a budget of "no limit" spelled as the
    // largest number of milliseconds) is no limit.
    const auto now = Clock::now();
    if (spec_.timeout.count() > 0 &&
        spec_.timeout < std::chrono::duration_cast<std::chrono::milliseconds>(Clock::time_point::max() - now)) {
      kill_at_ = now + spec_.timeout;
    }
  }

  // The child's stdin, now or from spec.stdin_later. One given nothing, or
  // given it past its limit, is killed unfed, before our end of its stdin
  // closes: a child that saw the end of its stdin first could act on an
  // empty config.
  void take_stdin() {
    if (spec_.stdin_later) {
      late_stdin_ = spec_.stdin_later();
      if (late_stdin_ && kill_at_ && Clock::now() >= *kill_at_) {
        late_stdin_.reset();
        outcome_.timed_out = true;
        kill_child();
      } else if (!late_stdin_) {
        outcome_.unfed = true;
        kill_child();
      }
      stdin_data_ = late_stdin_ ? std::string_view(*late_stdin_) : std::string_view();
    }
    if (stdin_data_.empty()) stdin_.close();
  }

  bool done() const { return exited_ && !stdout_.open() && !stderr_.open(); }

  void wait_and_serve() {
    std::array<pollfd, 4> fds{};
    nfds_t count = 0;
    auto watch = [&](const Descriptor& fd, short events) {
      if (fd.open()) fds[count++] = pollfd{fd.get(), events, 0};
    };
    watch(stdin_, POLLOUT);
    watch(stdout_, POLLIN);
    watch(stderr_, POLLIN);
    if (!exited_) watch(pidfd_, POLLIN);
    const int ready = ::poll(fds.data(), count, poll_timeout_ms());
    if (ready < 0 && errno != EINTR) {
      throw Error(kIoFailure, fmt::format("cannot wait for \"{}\": {}", spec_.program, error_text(errno)));
    }

    if (stdin_.open()) feed_stdin();
    drain(stdout_, outcome_.out);
    drain(stderr_, outcome_.err);
    if (!exited_) reap_if_exited();
    const auto now = Clock::now();
    if (!exited_ && kill_at_ && now >= *kill_at_ && !outcome_.timed_out) {
      outcome_.timed_out = true;
      kill_child();
    }
    if (exited_ && now >= drain_until_) {
      // What the child wrote before it exited was read above; stop waiting
      // for whoever else holds the pipes.
      stdout_.close();
      stderr_.close();
    }
  }

  // Until the next deadline (the kill, or the end of the drain), bounded by
  // kExitPollWithoutPidfd while the exit must be looked for by hand.
  int poll_timeout_ms() const {
    std::optional<Clock::time_point> until;
    if (exited_) {
      until = drain_until_;
    } else if (kill_at_ && !outcome_.timed_out) {
      until = kill_at_;
    }
    if (!exited_ && !pidfd_.open()) {
      const auto soon = Clock::now() + kExitPollWithoutPidfd;
      if (!until || soon < *until) until = soon;
    }
    if (!until) return -1;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(*until - Clock::now()).count();
    return static_cast<int>(std::clamp<decltype(left)>(left, 0, std::numeric_limits<int>::max()));
  }

  void feed_stdin() {
    while (written_ < stdin_data_.size()) {
      const ssize_t n = ::write(stdin_.get(), stdin_data_.data() + written_, stdin_data_.size() - written_);
      if (n > 0) {
        written_ += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) return;
      break;  // EPIPE: the child closed its stdin, or exited without reading it
    }
    stdin_.close();
  }

  // Reads what is there, up to kReadsPerPass buffers: a writer faster than
  // this reader must not keep the loop from its deadlines.
  static void drain(Descriptor& fd, std::string& sink) {
    std::array<char, 64 * 1024> buffer;
    for (int reads = 0; fd.open() && reads < kReadsPerPass; ++reads) {
      const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
      if (n > 0) {
        sink.append(buffer.data(), static_cast<std::size_t>(n));
      } else if (n < 0 && errno == EINTR) {
        continue;  // not counted: nothing was read
      } else if (n < 0 && errno == EAGAIN) {
        return;
      } else {
        fd.close();  // end of file, or a read error: this output is complete
      }
    }
  }

  void reap_if_exited() {
    int status = 0;
    pid_t reaped;
    do {
      reaped = ::waitpid(pid_, &status, WNOHANG);
    } while (reaped < 0 && errno == EINTR);
    // No child of that number: something else collected it (the kernel, when
    // SIGCHLD is ignored). It has ended; its status is lost.
    if (reaped < 0 && errno == ECHILD) status_lost_ = true;
    if (reaped != pid_ && !status_lost_) return;
    exited_ = true;
    if (WIFEXITED(status)) outcome_.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) outcome_.term_signal = WTERMSIG(status);
    stdin_.close();
    pidfd_.close();
    drain_until_ = Clock::now() + kDrainAfterExit;
  }

  // Through the pidfd when there is one: the number alone may name another
  // process once the child has been collected.
  void kill_child() const {
#ifdef SYS_pidfd_send_signal
    if (pidfd_.open() && ::syscall(SYS_pidfd_send_signal, pidfd_.get(), SIGKILL, nullptr, 0) == 0) return;
#endif
    if (!status_lost_) ::kill(pid_, SIGKILL);
  }

  const ProcessSpec& spec_;
  std::optional<std::string> late_stdin_;
  std::string_view stdin_data_ = spec_.stdin_data;
  ProcessOutcome outcome_;
  bool status_lost_ = false;
  pid_t pid_ = -1;
  Descriptor stdin_;
  Descriptor stdout_;
  Descriptor stderr_;
  Descriptor pidfd_;
  std::size_t written_ = 0;
  bool exited_ = false;
  std::optional<Clock::time_point> kill_at_;
  Clock::time_point drain_until_;
};

}  // namespace

ProcessOutcome run_child(const ProcessSpec& spec) {
  SigpipeBlock sigpipe_blocked;
  ChildRun child(spec);
  return child.run();
}

}  // namespace wincni::os::platform
