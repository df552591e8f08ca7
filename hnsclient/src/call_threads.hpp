#pragma once
// The threads HNS calls run on, kept for the next call instead of ending
// with each one: a plugin makes some twenty calls per command, and starting
// a thread for each (its stack faulted in again, the join) was about a
// quarter of a win-bridge ADD on the emulator.

#include <chrono>
#include <functional>

namespace wincni::hns {

// Runs `task` on an idle kept thread (a new one when none is idle) and waits
// at most `limit` for it to end. False when it did not: the task goes on
// running, and its thread ends after it instead of being kept. The task must
// own what it touches; it is destroyed on its thread before this returns
// true.
bool run_on_call_thread(std::function<void()> task, std::chrono::milliseconds limit);

// Waits at most `limit` for the tasks run_on_call_thread stopped waiting
// for; true when none of them is still running.
bool wait_for_abandoned_tasks(std::chrono::milliseconds limit);

}  // namespace wincni::hns
