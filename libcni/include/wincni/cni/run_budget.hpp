#pragma once
// The time a delegated plugin has before the plugin that started it gives up
// on it. Each level of a chain (flannel -> win-bridge -> host-local) kills a
// delegate that runs past its limit; a level that shared its parent's limit
// would be killed together with its own hung delegate, which then runs on
// where nothing kills what a process started (Linux), and the error would
// name the wrong plugin. So every delegate is told what it has, and gives
// up on its own delegates first.

#include <chrono>
#include <optional>
#include <string_view>

#include "wincni/cni/env.hpp"

namespace wincni::cni {

// Set by the calling plugin in each delegate's environment: the milliseconds
// the delegate has from its start. Absent for a plugin the runtime started.
inline constexpr std::string_view kTimeBudgetVariable = "WINCNI_TIME_BUDGET_MS";

// Time since this process started (since its static initialisation).
std::chrono::milliseconds time_since_start();

// What is left of the budget `env` gives this process (zero or less once it
// is spent); nullopt when it was given none or no positive number.
std::optional<std::chrono::milliseconds> time_left(const Environment& env);

// `limit`, or what is left of the budget `env` gives this process when that
// is less (zero once it is spent): how long a delegate may wait for anything
// (a lock, HNS, a network) and still answer before its caller gives up on it.
std::chrono::milliseconds within_budget(const Environment& env, std::chrono::milliseconds limit);

// Less than this left, and no delegate is started: it would be killed at
// some point of its work (host-local half-way through a write), and the
// runtime's next call does that work as well.
inline constexpr std::chrono::milliseconds kLeastTimeForDelegate{100};

// The budget for a delegate this process kills after `limit`: three quarters
// of it, so that the delegate's own limits end before ours, with room for it
// to start (it measures from its own start, after ours), kill its own
// delegate and answer. Never less than 1 ms.
std::chrono::milliseconds budget_for_delegate(std::chrono::milliseconds limit);

}  // namespace wincni::cni
