#include "wincni/hns/call_policy.hpp"

#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "wincni/cni/milliseconds_setting.hpp"
#include "wincni/hns/hns_error.hpp"

namespace wincni::hns {
namespace {

struct Pending {
  std::mutex mutex;
  std::condition_variable done;
  std::optional<CallOutcome> outcome;
  bool abandoned = false;  // the caller stopped waiting; counted in Abandoned
};

// Calls the caller gave up on that are still running: HNS may yet carry
// them out, so undoing their effect must wait for them first.
struct Abandoned {
  std::mutex mutex;
  std::condition_variable finished;
  int running = 0;
};

Abandoned& abandoned_calls() {
  static Abandoned calls;
  return calls;
}

CallOutcome run_once(const CallPolicy& policy, const std::function<CallOutcome()>& work) {
  auto pending = std::make_shared<Pending>();
  std::thread worker([pending, work] {
    CallOutcome outcome;
    try {
      outcome = work();
    } catch (const std::exception& error) {
      outcome = CallOutcome{hr::kFail, {}, error.what(), {}};
    }
    std::lock_guard<std::mutex> guard(pending->mutex);
    pending->outcome = std::move(outcome);
    pending->done.notify_all();
    if (pending->abandoned) {
      Abandoned& calls = abandoned_calls();
      std::lock_guard<std::mutex> count_guard(calls.mutex);
      --calls.running;
      calls.finished.notify_all();
    }
  });
  std::unique_lock<std::mutex> lock(pending->mutex);
  if (pending->done.wait_for(lock, policy.timeout, [&] { return pending->outcome.has_value(); })) {
    lock.unlock();
    worker.join();
    return std::move(*pending->outcome);
  }
  // A hung HNS call cannot be cancelled; the worker owns what it uses and
  // ends with the process.
  pending->abandoned = true;
  {
    Abandoned& calls = abandoned_calls();
    std::lock_guard<std::mutex> count_guard(calls.mutex);
    ++calls.running;
  }
  worker.detach();
  return CallOutcome{hr::kTimeout, {}, fmt::format("HNS did not answer within {} ms", policy.timeout.count()), {}};
}

CallOutcome repeat_with_backoff(const CallPolicy& policy, const std::function<CallOutcome()>& attempt,
                                const std::function<bool(const CallOutcome&)>& repeatable) {
  std::chrono::milliseconds backoff = policy.first_backoff;
  for (int tries = 1;; ++tries) {
    CallOutcome outcome = attempt();
    if (!repeatable(outcome) || tries >= policy.max_attempts) return outcome;
    std::this_thread::sleep_for(backoff);
    backoff = std::min(backoff * 2, policy.max_backoff);
  }
}

}  // namespace

bool wait_for_abandoned_calls(std::chrono::milliseconds limit) {
  Abandoned& calls = abandoned_calls();
  std::unique_lock<std::mutex> lock(calls.mutex);
  return calls.finished.wait_for(lock, limit, [&] { return calls.running == 0; });
}

CallPolicy CallPolicy::from_environment() {
  CallPolicy policy;
  if (const char* value = std::getenv("WINCNI_HNS_TIMEOUT_MS")) {
    if (const auto timeout = cni::milliseconds_setting(value)) policy.timeout = *timeout;
  }
  return policy;
}

CallOutcome run_call(const CallPolicy& policy, const std::function<CallOutcome()>& work, bool idempotent) {
  return repeat_with_backoff(
      policy, [&] { return run_once(policy, work); },
      [idempotent](const CallOutcome& outcome) {
        return !outcome.work_done && (is_transient(outcome.hr) || (idempotent && is_maybe_executed(outcome.hr)));
      });
}

}  // namespace wincni::hns
