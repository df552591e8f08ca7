#include "call_threads.hpp"

#include "wincni/hns/call_policy.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace wincni::hns {
namespace {

// Sleeping on the condition variable until the other side is done costs two
// context switches a call and, when the CPU went idle meanwhile, waking it:
// on the project's 2-core virtual machine about 30 us, some 40% of an
// emulated HNS call (0.25 ms of win-bridge's ADD). So each side first polls
// for this long, yielding its CPU to any thread that wants it; a real HNS
// call (milliseconds) ends in the sleep.
constexpr std::chrono::microseconds kPollBeforeSleeping{100};

// How many SleepWhileWaiting live.
std::atomic<int> sleepers_wanted{0};

// Polls `ready` for kPollBeforeSleeping, unless a SleepWhileWaiting lives.
// With a delegate running beside the calls, polling made a win-bridge STATUS
// on the emulator slower, not faster (docs/benchmarks.md, section 8).
template <class Ready>
void poll_briefly(const Ready& ready) {
  if (sleepers_wanted.load(std::memory_order_relaxed) > 0) return;
  const auto until = std::chrono::steady_clock::now() + kPollBeforeSleeping;
  while (!ready() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
}

// One kept thread: it waits for a task, runs it, reports, and waits again —
// or ends, when its caller gave up on the task. The flags are atomic so
// that each side can poll them without the lock; they change under it.
struct CallThread {
  std::mutex mutex;
  std::condition_variable changed;
  std::function<void()> task;  // set by the caller, taken by the thread
  bool abandoned = false;
  std::atomic<bool> task_waiting{false};  // `task` is set: what the thread polls for
  std::atomic<bool> task_done{false};     // what the caller polls and waits for
};

// Never destroyed: kept threads wait on their CallThread until the process
// ends, and destroying a condition variable a thread waits on is undefined.
struct Threads {
  std::mutex mutex;
  std::vector<std::shared_ptr<CallThread>> idle;
  std::condition_variable abandoned_ended;
  int abandoned_running = 0;
};

Threads& threads() {
  static Threads* kept = new Threads;
  return *kept;
}

void serve(const std::shared_ptr<CallThread>& self) {
  std::unique_lock<std::mutex> lock(self->mutex);
  for (;;) {
    lock.unlock();
    poll_briefly([&] { return self->task_waiting.load(std::memory_order_acquire); });
    lock.lock();
    self->changed.wait(lock, [&] { return static_cast<bool>(self->task); });
    std::function<void()> task = std::move(self->task);
    self->task = nullptr;
    self->task_waiting = false;
    lock.unlock();
    task();
    task = nullptr;
    lock.lock();
    self->task_done.store(true, std::memory_order_release);
    self->changed.notify_all();
    if (self->abandoned) break;
  }
  lock.unlock();
  Threads& all = threads();
  std::lock_guard<std::mutex> guard(all.mutex);
  --all.abandoned_running;
  all.abandoned_ended.notify_all();
}

std::shared_ptr<CallThread> idle_or_new_thread() {
  Threads& all = threads();
  {
    std::lock_guard<std::mutex> guard(all.mutex);
    if (!all.idle.empty()) {
      std::shared_ptr<CallThread> kept = std::move(all.idle.back());
      all.idle.pop_back();
      return kept;
    }
  }
  auto fresh = std::make_shared<CallThread>();
  std::thread(serve, fresh).detach();
  return fresh;
}

}  // namespace

SleepWhileWaiting::SleepWhileWaiting() { sleepers_wanted.fetch_add(1, std::memory_order_relaxed); }

SleepWhileWaiting::~SleepWhileWaiting() { sleepers_wanted.fetch_sub(1, std::memory_order_relaxed); }

bool run_on_call_thread(std::function<void()> task, std::chrono::milliseconds limit) {
  std::shared_ptr<CallThread> thread = idle_or_new_thread();
  std::unique_lock<std::mutex> lock(thread->mutex);
  thread->task_done = false;
  thread->task = std::move(task);
  thread->task_waiting.store(true, std::memory_order_release);
  thread->changed.notify_all();
  lock.unlock();
  const auto deadline = std::chrono::steady_clock::now() + limit;
  poll_briefly([&] { return thread->task_done.load(std::memory_order_acquire); });
  lock.lock();
  if (thread->changed.wait_until(lock, deadline, [&] { return thread->task_done.load(std::memory_order_acquire); })) {
    lock.unlock();
    Threads& all = threads();
    std::lock_guard<std::mutex> guard(all.mutex);
    all.idle.push_back(std::move(thread));
    return true;
  }
  // A hung task cannot be cancelled; its thread ends once it returns. Counted
  // under the thread's lock, so the count goes up before the thread can see
  // `abandoned` and bring it down.
  thread->abandoned = true;
  Threads& all = threads();
  std::lock_guard<std::mutex> guard(all.mutex);
  ++all.abandoned_running;
  return false;
}

bool wait_for_abandoned_tasks(std::chrono::milliseconds limit) {
  Threads& all = threads();
  std::unique_lock<std::mutex> lock(all.mutex);
  return all.abandoned_ended.wait_for(lock, limit, [&] { return all.abandoned_running == 0; });
}

}  // namespace wincni::hns
