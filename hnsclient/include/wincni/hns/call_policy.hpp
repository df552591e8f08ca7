#pragma once
// How the client calls HNS: every call has a deadline, and a call HNS could
// not take (restarting, too busy) is repeated with bounded exponential
// backoff.

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "wincni/hns/hresult.hpp"

namespace wincni::hns {

struct CallPolicy {
  // HNS normally answers in milliseconds; a call still running after this
  // is taken for a hung HNS.
  std::chrono::milliseconds timeout{30'000};
  int max_attempts = 5;
  std::chrono::milliseconds first_backoff{100};
  std::chrono::milliseconds max_backoff{2'000};
  // When the plugin is a delegate, the end of the time the plugin that
  // started it gave it (cni/run_budget.hpp): no call is waited for, and none
  // repeated, past it, so the delegate answers before its caller gives up on
  // it, also when it runs in the caller's process, where nothing could kill it.
  std::optional<std::chrono::steady_clock::time_point> deadline;

  // How long a call may be waited for now: `timeout`, less once the deadline
  // is nearer; zero once it passed.
  std::chrono::milliseconds wait_limit() const;

  // WINCNI_HNS_TIMEOUT_MS overrides the timeout (tests make it short).
  static CallPolicy from_environment();
};

// What one unit of work against the seam came to: the HRESULT, its output,
// HNS's error text and the Win32 call that failed (for messages).
// A v1 Success:false answer has no HRESULT: hr stays S_OK and hns_text
// holds its Error.
struct CallOutcome {
  HResult hr = hr::kOk;
  std::string output;
  std::string hns_text;
  std::string operation;
  // The failure came after HNS had done the work (an S_OK answer that
  // cannot be read, the read-back of an object just created): not to be
  // repeated, and no refusal (HnsError::after_work).
  bool work_done = false;

  bool ok() const { return succeeded(hr) && hns_text.empty(); }
};

// Runs `work` on a worker thread and waits for it at most policy.timeout
// (then: ERROR_TIMEOUT, and the worker is left to finish on its own, so
// `work` must own everything it touches). Repeats transient failures, and
// RPC_S_CALL_FAILED too when `idempotent`.
CallOutcome run_call(const CallPolicy& policy, const std::function<CallOutcome()>& work, bool idempotent);

// Waits, at most `limit`, for the calls run_call stopped waiting for to end;
// true when none is left running. Before undoing a call that timed out (a
// create, say): HNS may still carry it out after the undo, and what it
// creates then would be left behind.
bool wait_for_abandoned_calls(std::chrono::milliseconds limit);

// While one lives, a thread waiting for an HNS call sleeps at once instead
// of first polling for the answer (call_threads.cpp). For a command that
// runs a delegate beside its HNS calls: on a machine with few cores the
// polling takes the CPU the delegate's process needs.
class SleepWhileWaiting {
 public:
  SleepWhileWaiting();
  ~SleepWhileWaiting();
  SleepWhileWaiting(const SleepWhileWaiting&) = delete;
  SleepWhileWaiting& operator=(const SleepWhileWaiting&) = delete;
};

}  // namespace wincni::hns
