#pragma once
// A delegate run in process (carried_plugins.hpp): the carried plugin's skel
// run with the delegate's environment and config, its stdout, stderr and exit
// code gathered as a process's would be, so that delegate.cpp reads both
// alike.

#include <string>
#include <string_view>

#include "wincni/cni/env.hpp"
#include "wincni/cni/skel.hpp"
#include "wincni/os/process.hpp"

namespace wincni::cni::detail {

// The carried plugin to run in place of the file at `program`: the one the
// file says it is, when it is of this build and delegation in process is
// allowed by `env`; else nullptr.
const PluginSpec* in_process_plugin(const std::string& program, const Environment& env);

// Whether delegating to `plugin` with `env` would run it in process: its
// file in CNI_PATH is a carried plugin of this build. False also when the
// file cannot be found (the delegation then reports that).
bool delegate_runs_in_process(std::string_view plugin, const Environment& env);

// Runs `spec` as its file would run with `child_env` and `config` on stdin.
// `child_env`'s time budget (run_budget.hpp) counts from this process's
// start, as time_left reads it, not from the call.
os::ProcessOutcome run_in_process(const PluginSpec& spec, const Environment& child_env, std::string config);

}  // namespace wincni::cni::detail
