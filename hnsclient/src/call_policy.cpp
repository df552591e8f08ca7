#include "wincni/hns/call_policy.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "wincni/cni/milliseconds_setting.hpp"
#include "wincni/hns/hns_error.hpp"

#include "call_threads.hpp"

namespace wincni::hns {
namespace {

CallOutcome run_once(const CallPolicy& policy, const std::function<CallOutcome()>& work) {
  const std::chrono::milliseconds limit = policy.wait_limit();
  if (limit.count() == 0) {
    return CallOutcome{hr::kTimeout,
                       {},
                       "not called: the time the plugin that started this one gave it (WINCNI_TIME_BUDGET_MS) "
                       "is spent",
                       {}};
  }
  // Shared with the task, which may outlive this call when HNS hangs.
  auto outcome = std::make_shared<CallOutcome>();
  const bool ended = run_on_call_thread(
      [outcome, work] {
        try {
          *outcome = work();
        } catch (const std::exception& error) {
          *outcome = CallOutcome{hr::kFail, {}, error.what(), {}};
        }
      },
      limit);
  if (ended) return std::move(*outcome);
  return CallOutcome{hr::kTimeout, {}, fmt::format("HNS did not answer within {} ms", limit.count()), {}};
}

CallOutcome repeat_with_backoff(const CallPolicy& policy, const std::function<CallOutcome()>& attempt,
                                const std::function<bool(const CallOutcome&)>& repeatable) {
  std::chrono::milliseconds backoff = policy.first_backoff;
  for (int tries = 1;; ++tries) {
    CallOutcome outcome = attempt();
    if (!repeatable(outcome) || tries >= policy.max_attempts) return outcome;
    if (policy.deadline && std::chrono::steady_clock::now() + backoff >= *policy.deadline) return outcome;
    std::this_thread::sleep_for(backoff);
    backoff = std::min(backoff * 2, policy.max_backoff);
  }
}

}  // namespace

std::chrono::milliseconds CallPolicy::wait_limit() const {
  if (!deadline) return timeout;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
  return std::clamp(left, std::chrono::milliseconds(0), timeout);
}

bool wait_for_abandoned_calls(std::chrono::milliseconds limit) { return wait_for_abandoned_tasks(limit); }

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
