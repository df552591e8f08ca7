// How the client runs HNS calls: on kept threads, each within its time limit.
// Checks run on the test's own thread only (doctest's state is not shared
// with others under mingw); the calls report through futures.

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <thread>

#include "wincni/hns/call_policy.hpp"

using namespace wincni::hns;
using namespace std::chrono_literals;

namespace {

CallPolicy policy_with_timeout(std::chrono::milliseconds timeout) {
  CallPolicy policy;
  policy.timeout = timeout;
  return policy;
}

// Which thread this is, as a number no other thread of the process gets (a
// thread's ID may be handed to the next thread once it has ended).
int thread_serial() {
  static std::atomic<int> threads_seen{0};
  thread_local const int serial = ++threads_seen;
  return serial;
}

// A call that answers with the thread it ran on.
CallOutcome run_reporting_thread(const CallPolicy& policy, int& ran_on) {
  auto thread = std::make_shared<int>();
  CallOutcome outcome = run_call(
      policy,
      [thread] {
        *thread = thread_serial();
        return CallOutcome{};
      },
      true);
  ran_on = *thread;
  return outcome;
}

}  // namespace

TEST_CASE("calls one after another run on one kept thread, not the caller's") {
  const CallPolicy policy = policy_with_timeout(10s);
  int first = 0;
  int second = 0;
  REQUIRE(run_reporting_thread(policy, first).ok());
  REQUIRE(run_reporting_thread(policy, second).ok());
  CHECK(first != thread_serial());
  CHECK(first == second);
}

TEST_CASE("a call past its time limit is left to its thread, and the next call gets another") {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  auto hung_thread = std::make_shared<int>();
  const CallOutcome timed_out = run_call(
      policy_with_timeout(100ms),
      [released, hung_thread] {
        *hung_thread = thread_serial();
        released.wait();
        return CallOutcome{};
      },
      true);
  CHECK(timed_out.hr == hr::kTimeout);
  CHECK(timed_out.hns_text == "HNS did not answer within 100 ms");
  CHECK_FALSE(wait_for_abandoned_calls(50ms));

  int next = 0;
  REQUIRE(run_reporting_thread(policy_with_timeout(10s), next).ok());
  CHECK(next != *hung_thread);

  release.set_value();
  CHECK(wait_for_abandoned_calls(10s));
  // The abandoned thread ended instead of being kept: later calls still run.
  int later = 0;
  REQUIRE(run_reporting_thread(policy_with_timeout(10s), later).ok());
  CHECK(later != *hung_thread);
}

TEST_CASE("calls from two threads at once run at once, each on a thread of its own") {
  // Each call waits for the other to start: run one after another, the
  // first would time out.
  const CallPolicy policy = policy_with_timeout(5s);
  auto first_started = std::make_shared<std::promise<void>>();
  auto second_started = std::make_shared<std::promise<void>>();
  std::shared_future<void> first_running = first_started->get_future().share();
  std::shared_future<void> second_running = second_started->get_future().share();
  const auto meet = [](std::shared_ptr<std::promise<void>> mine, std::shared_future<void> other) {
    return [mine, other] {
      mine->set_value();
      return other.wait_for(4s) == std::future_status::ready ? CallOutcome{} : CallOutcome{hr::kFail, {}, {}, {}};
    };
  };
  std::future<CallOutcome> other_caller =
      std::async(std::launch::async, [&] { return run_call(policy, meet(second_started, first_running), true); });
  const CallOutcome mine = run_call(policy, meet(first_started, second_running), true);
  CHECK(mine.ok());
  CHECK(other_caller.get().ok());
}

TEST_CASE("a call that throws answers E_FAIL with the exception's text, and its thread is kept") {
  const CallOutcome outcome = run_call(
      policy_with_timeout(10s), []() -> CallOutcome { throw std::runtime_error("emulator store unreadable"); }, true);
  CHECK(outcome.hr == hr::kFail);
  CHECK(outcome.hns_text == "emulator store unreadable");
  int after = 0;
  CHECK(run_reporting_thread(policy_with_timeout(10s), after).ok());
}
