#pragma once
// Delegation to another plugin (IPAM, or the plugin flannel wraps): found in
// CNI_PATH, run with our whole environment but CNI_COMMAND, fed the config.

#include <chrono>
#include <string>
#include <string_view>

#include "wincni/os/byte_streams.hpp"
#include "wincni/cni/env.hpp"
#include "wincni/cni/result.hpp"

namespace wincni::cni {

struct DelegateOptions {
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};
  // Where a successful delegate's stderr goes; nullptr means our stderr.
  os::ByteSink* stderr_sink = nullptr;
};

// The plugin is found with find_plugin (plugin_path.hpp) in env's CNI_PATH
// and run with env, CNI_COMMAND replaced, and `config` verbatim on stdin: in
// this process when the file is a plugin this executable carries, of this
// build (carried_plugins.hpp), else as a process.
// Errors (cni::Error):
//   - the plugin cannot be found or started: see find_plugin; 5 when it
//     exists but cannot be executed;
//   - the delegate exits non-zero with CNI error JSON on stdout: its code,
//     msg and details unchanged;
//   - it fails without one (empty or unparsable stdout, or killed by a
//     signal): 999, the message names the plugin and quotes its stderr
//     (what the delegate printed is quoted up to 4 KiB);
//   - it runs past options.timeout (or env's WINCNI_DELEGATE_TIMEOUT_MS,
//     which wins when it is a positive number), or past what is left of
//     this process's own budget when it is a delegate itself
//     (run_budget.hpp): killed, then 11 "delegate plugin <name> timed out
//     after <n> ms". The delegate is given three quarters of that limit as
//     its budget, so its own delegates end before it is killed; what a
//     killed delegate started dies with it on Windows (run_child's job object),
//     not on Linux. A delegate run in process (carried_plugins.hpp) cannot
//     be killed: it ends its own waits by that budget (host-local's store
//     lock, the engine's HNS calls, network lock and network wait) and
//     answers as itself;
//   - less than 100 ms of this process's budget is left: 11, nothing is
//     started;
//   - this process already runs 4 delegations deep (WINCNI_DELEGATION_DEPTH,
//     which each delegate gets one higher): 7, before anything is started.
// ADD: the delegate's result, decoded in its own cniVersion (or `version`
// when it prints none); stdout that is not JSON is 6.
Result delegate_add(std::string_view plugin, std::string_view config, std::string_view version, const Environment& env,
                    const DelegateOptions& options = {});
void delegate_del(std::string_view plugin, std::string_view config, const Environment& env,
                  const DelegateOptions& options = {});
void delegate_check(std::string_view plugin, std::string_view config, const Environment& env,
                    const DelegateOptions& options = {});
void delegate_gc(std::string_view plugin, std::string_view config, const Environment& env,
                 const DelegateOptions& options = {});
void delegate_status(std::string_view plugin, std::string_view config, const Environment& env,
                     const DelegateOptions& options = {});

}  // namespace wincni::cni
