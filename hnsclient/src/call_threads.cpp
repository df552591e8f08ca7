#include "call_threads.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace wincni::hns {
namespace {

// One kept thread: it waits for a task, runs it, reports, and waits again —
// or ends, when its caller gave up on the task.
struct CallThread {
  std::mutex mutex;
  std::condition_variable changed;
  std::function<void()> task;  // set by the caller, taken by the thread
  bool task_ended = false;
  bool abandoned = false;
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
    self->changed.wait(lock, [&] { return static_cast<bool>(self->task); });
    std::function<void()> task = std::move(self->task);
    self->task = nullptr;
    lock.unlock();
    task();
    task = nullptr;
    lock.lock();
    self->task_ended = true;
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

bool run_on_call_thread(std::function<void()> task, std::chrono::milliseconds limit) {
  std::shared_ptr<CallThread> thread = idle_or_new_thread();
  std::unique_lock<std::mutex> lock(thread->mutex);
  thread->task_ended = false;
  thread->task = std::move(task);
  thread->changed.notify_all();
  if (thread->changed.wait_for(lock, limit, [&] { return thread->task_ended; })) {
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
