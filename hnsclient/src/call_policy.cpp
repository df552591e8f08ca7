#include "wincni/hns/call_policy.hpp"

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
      policy.timeout);
  if (ended) return std::move(*outcome);
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
