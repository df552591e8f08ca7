// One child on libuv (the Windows builds: CreateProcess, its pipes and a job
// of waiting on them): one private loop per call, so concurrent calls from
// several threads never share state.

#include "../child_process.hpp"

#include <uv.h>

#include <array>
#include <cstdint>
#include <utility>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"

namespace wincni::cni::platform {
namespace {

// Once the child has exited, a grandchild that inherited its stdout or stderr
// could keep those pipes open for ever; we read on for this long, then stop.
constexpr std::uint64_t kDrainAfterExitMs = 1000;

struct OutputPipe {
  uv_pipe_t handle{};
  std::string* sink = nullptr;
  bool open = true;
  // Not zeroed: libuv fills it before anything reads it, and zeroing two
  // of them touched 128 KiB of stack at every delegation.
  std::array<char, 64 * 1024> buffer;
};

// The program did not start (libuv's error code): nothing ran.
struct SpawnFailed {
  int rc;
};

// Owns the loop and every handle of one child. Handles are registered with
// libuv by address, so an instance never moves.
class ChildRun {
 public:
  explicit ChildRun(const ProcessSpec& spec) : spec_(spec) {}
  ChildRun(const ChildRun&) = delete;
  ChildRun& operator=(const ChildRun&) = delete;

  ProcessOutcome run() {
    check(uv_loop_init(&loop_), "cannot create an event loop");
    loop_ready_ = true;
    uv_pipe_init(&loop_, &stdin_, 0);
    stdin_.data = this;
    for (auto* out : {&stdout_, &stderr_}) {
      uv_pipe_init(&loop_, &out->handle, 0);
      out->handle.data = this;
    }
    stdout_.sink = &outcome_.out;
    stderr_.sink = &outcome_.err;
    for (auto* timer : {&kill_timer_, &drain_timer_}) {
      uv_timer_init(&loop_, timer);
      timer->data = this;
    }

    if (const int rc = spawn(); rc != 0) {
      uv_close(reinterpret_cast<uv_handle_t*>(&process_), nullptr);
      close_all_and_drain();
      throw SpawnFailed{rc};
    }
    feed_stdin();
    for (auto* out : {&stdout_, &stderr_}) {
      if (uv_read_start(stream(out->handle), &ChildRun::on_alloc, &ChildRun::on_read) != 0) close_output(*out);
    }
    if (spec_.timeout.count() > 0) {
      uv_timer_start(&kill_timer_, &ChildRun::on_timeout, static_cast<std::uint64_t>(spec_.timeout.count()), 0);
    }
    uv_run(&loop_, UV_RUN_DEFAULT);
    if (drain_expired_) {
      // The loop may have woken late (a loaded machine) and run the expired
      // timer before polling the pipes: one non-blocking pass reads what the
      // child wrote before it exited, then we stop waiting for the rest.
      uv_run(&loop_, UV_RUN_NOWAIT);
      for (auto* out : {&stdout_, &stderr_}) {
        if (out->open) close_output(*out);
      }
    }
    close_all_and_drain();
    return std::move(outcome_);
  }

  ~ChildRun() {
    if (loop_ready_) {
      close_all_and_drain();
      uv_loop_close(&loop_);
    }
  }

 private:
  static uv_stream_t* stream(uv_pipe_t& pipe) { return reinterpret_cast<uv_stream_t*>(&pipe); }
  static uv_handle_t* handle(void* h) { return static_cast<uv_handle_t*>(h); }
  static ChildRun& self(void* data) { return *static_cast<ChildRun*>(data); }

  void check(int rc, const char* what) {
    if (rc != 0) throw Error(kIoFailure, fmt::format("{} for \"{}\": {}", what, spec_.program, uv_strerror(rc)));
  }

  int spawn() {
    file_ = without_path_search(spec_.program);
    // Its envp is an empty array, not NULL: NULL would make libuv pass our
    // environment on.
    ExecArguments arguments(spec_);

    std::array<uv_stdio_container_t, 3> stdio{};
    stdio[0].flags = static_cast<uv_stdio_flags>(UV_CREATE_PIPE | UV_READABLE_PIPE);
    stdio[0].data.stream = stream(stdin_);
    stdio[1].flags = static_cast<uv_stdio_flags>(UV_CREATE_PIPE | UV_WRITABLE_PIPE);
    stdio[1].data.stream = stream(stdout_.handle);
    stdio[2].flags = static_cast<uv_stdio_flags>(UV_CREATE_PIPE | UV_WRITABLE_PIPE);
    stdio[2].data.stream = stream(stderr_.handle);

    uv_process_options_t options{};
    options.exit_cb = &ChildRun::on_exit;
    options.file = file_.c_str();
    options.args = arguments.argv();
    options.env = arguments.envp();
    // No UV_PROCESS_WINDOWS_HIDE: it gives every child a console of its own
    // (CREATE_NO_WINDOW); sharing ours is what Go's os/exec does, and under
    // Wine each extra console is a conhost that may outlive a killed child
    // while holding our stdout open.
    options.stdio_count = static_cast<int>(stdio.size());
    options.stdio = stdio.data();
    process_.data = this;
    return uv_spawn(&loop_, &process_, &options);
  }

  void feed_stdin() {
    if (spec_.stdin_data.empty()) {
      close_stdin();
      return;
    }
    // libuv reads from the buffer until the write completes; spec_ outlives it.
    uv_buf_t buf = uv_buf_init(const_cast<char*>(spec_.stdin_data.data()),
                               static_cast<unsigned>(spec_.stdin_data.size()));
    write_req_.data = this;
    if (uv_write(&write_req_, stream(stdin_), &buf, 1, &ChildRun::on_written) != 0) close_stdin();
  }

  void close_stdin() {
    if (!uv_is_closing(handle(&stdin_))) uv_close(handle(&stdin_), nullptr);
  }

  void close_output(OutputPipe& out) {
    out.open = false;
    if (!uv_is_closing(handle(&out.handle))) uv_close(handle(&out.handle), nullptr);
    finish_if_done();
  }

  // Everything is in once the child has exited and both outputs are closed;
  // closing the timers then lets uv_run return.
  void finish_if_done() {
    if (!exited_ || stdout_.open || stderr_.open) return;
    for (auto* timer : {&kill_timer_, &drain_timer_}) {
      if (!uv_is_closing(handle(timer))) uv_close(handle(timer), nullptr);
    }
  }

  void close_all_and_drain() {
    uv_walk(
        &loop_,
        [](uv_handle_t* h, void*) {
          if (!uv_is_closing(h)) uv_close(h, nullptr);
        },
        nullptr);
    uv_run(&loop_, UV_RUN_DEFAULT);
  }

  static void on_written(uv_write_t* req, int) { self(req->data).close_stdin(); }

  static void on_alloc(uv_handle_t* h, size_t, uv_buf_t* buf) {
    auto& run = self(h->data);
    auto& out = (h == handle(&run.stdout_.handle)) ? run.stdout_ : run.stderr_;
    *buf = uv_buf_init(out.buffer.data(), static_cast<unsigned>(out.buffer.size()));
  }

  static void on_read(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
    auto& run = self(s->data);
    auto& out = (s == stream(run.stdout_.handle)) ? run.stdout_ : run.stderr_;
    if (nread > 0) {
      out.sink->append(buf->base, static_cast<size_t>(nread));
    } else if (nread < 0) {  // UV_EOF or a read error: this output is complete
      run.close_output(out);
    }
  }

  static void on_exit(uv_process_t* p, int64_t exit_status, int term_signal) {
    auto& run = self(p->data);
    run.exited_ = true;
    run.outcome_.exit_code = static_cast<int>(exit_status);
    run.outcome_.term_signal = term_signal;
    uv_close(handle(p), nullptr);
    run.close_stdin();
    uv_timer_stop(&run.kill_timer_);
    if (run.stdout_.open || run.stderr_.open) {
      uv_timer_start(&run.drain_timer_, &ChildRun::on_drain_expired, kDrainAfterExitMs, 0);
    }
    run.finish_if_done();
  }

  static void on_timeout(uv_timer_t* t) {
    auto& run = self(t->data);
    if (run.exited_) return;
    run.outcome_.timed_out = true;
    uv_process_kill(&run.process_, SIGKILL);
  }

  static void on_drain_expired(uv_timer_t* t) {
    auto& run = self(t->data);
    run.drain_expired_ = true;
    uv_stop(&run.loop_);
  }

  const ProcessSpec& spec_;
  ProcessOutcome outcome_;
  std::string file_;

  uv_loop_t loop_{};
  bool loop_ready_ = false;
  uv_process_t process_{};
  uv_pipe_t stdin_{};
  uv_write_t write_req_{};
  OutputPipe stdout_;
  OutputPipe stderr_;
  uv_timer_t kill_timer_{};
  uv_timer_t drain_timer_{};
  bool exited_ = false;
  bool drain_expired_ = false;
};

// What says the program cannot start at all (absent, not allowed, not a
// program, a bad path); anything else may work a moment later.
bool is_final(int rc) {
  for (int final_rc : {UV_ENOENT, UV_EACCES, UV_EPERM, UV_EFTYPE, UV_EINVAL, UV_ENOTDIR, UV_EISDIR, UV_ENAMETOOLONG,
                       UV_E2BIG, UV_ELOOP}) {
    if (rc == final_rc) return true;
  }
  return false;
}

// STATUS_DLL_INIT_FAILED: the loader gave up because a DLL's
// initialisation failed, almost certainly before the program's own code
// ran (a program could end with this status itself, but none of ours or
// of the CNI plugins we start does, and never silently). Windows does this
// to a process started while the desktop heap is exhausted (many processes
// on a busy node), and perhaps Wine under load; a moment later the same
// program starts. With any output the program did run, and its status
// stands.
constexpr std::uint32_t kDllInitFailed = 0xC0000142;

bool never_ran(const ProcessOutcome& outcome) {
  return static_cast<std::uint32_t>(outcome.exit_code) == kDllInitFailed && !outcome.timed_out &&
         outcome.out.empty() && outcome.err.empty();
}

}  // namespace

ProcessOutcome run_child(const ProcessSpec& spec) {
  ProcessOutcome outcome;
  try {
    ChildRun child(spec);
    outcome = child.run();
  } catch (const SpawnFailed& failed) {
    throw StartFailure{uv_strerror(failed.rc), is_final(failed.rc)};
  }
  if (never_ran(outcome)) throw StartFailure{"its DLLs failed to initialise (0xC0000142)", false};
  return outcome;
}

}  // namespace wincni::cni::platform
