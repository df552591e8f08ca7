// Delegation as Go libcni's invoke package does it (docs/reference/cni-protocol.md §2),
// on top of run_process.

#include "wincni/cni/delegate.hpp"

#include "delegate_run.hpp"
#include "in_process_delegate.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wincni/cni/error.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/cni/milliseconds_setting.hpp"
#include "wincni/cni/plugin_path.hpp"
#include "wincni/os/process.hpp"
#include "wincni/cni/run_budget.hpp"

namespace wincni::cni {
namespace {

using nlohmann::json;

std::string describe_exit(const os::ProcessOutcome& outcome) {
  if (outcome.term_signal != 0) return fmt::format("killed by signal {}", outcome.term_signal);
  return fmt::format("exit status {}", outcome.exit_code);
}

// The CNI error a failed plugin printed: {"code", "msg", "details"}, keys
// matched as Go's decoder does. nullopt when stdout holds no such object.
std::optional<Error> printed_error(const std::string& out) {
  const auto doc = json::parse(out, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  const auto* msg = find_key(doc, "msg");
  if (msg == nullptr || !msg->is_string()) return std::nullopt;
  const auto* code = find_key(doc, "code");
  const auto* details = find_key(doc, "details");
  return Error(code != nullptr && code->is_number_integer() ? code->get<int>() : kInternal, msg->get<std::string>(),
               details != nullptr && details->is_string() ? details->get<std::string>() : std::string());
}

// What a delegate printed, as much as an error message should carry: a
// plugin that prints megabytes must not make our answer (and the runtime's
// event log) megabytes long.
std::string excerpt(std::string_view text) {
  constexpr size_t kMaxQuoted = 4096;
  if (text.size() <= kMaxQuoted) return std::string(text);
  return fmt::format("{}... ({} bytes in all)", text.substr(0, kMaxQuoted), text.size());
}

Error failure(std::string_view plugin, const os::ProcessOutcome& outcome) {
  if (!outcome.out.empty() && outcome.term_signal == 0) {
    if (auto error = printed_error(outcome.out)) return *error;
    return Error(kInternal,
                 fmt::format("delegate plugin {} failed ({}) and printed no CNI error: {:?}", plugin,
                             describe_exit(outcome), excerpt(outcome.out)),
                 excerpt(outcome.err));
  }
  if (outcome.err.empty()) {
    return Error(kInternal,
                 fmt::format("delegate plugin {} failed with no error message ({})", plugin, describe_exit(outcome)));
  }
  return Error(kInternal, fmt::format("delegate plugin {} failed ({}): {:?}", plugin, describe_exit(outcome),
                                      excerpt(outcome.err)));
}

// How many delegations deep this process runs, passed down to each delegate:
// a config whose delegate leads back to its caller ("ipam": {"type":
// "win-bridge"}) would otherwise start processes until the machine gives out.
constexpr std::string_view kDepthVariable = "WINCNI_DELEGATION_DEPTH";
constexpr int kMaxDelegationDepth = 4;

int delegation_depth(const Environment& env) {
  const std::string text = env.get_or(kDepthVariable, "0");
  int depth = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), depth);
  return error == std::errc{} && end == text.data() + text.size() && depth > 0 ? depth : 0;
}

// What a delegate's run (a process's, or one in process) gives its caller:
// its stdout once it succeeded, its stderr passed on; else the error.
std::string answer(std::string_view plugin, os::ProcessOutcome outcome, std::chrono::milliseconds timeout,
                   const DelegateOptions& options) {
  if (outcome.timed_out) {
    throw Error(kTryAgainLater, fmt::format("delegate plugin {} timed out after {} ms", plugin, timeout.count()),
                excerpt(outcome.err));
  }
  if (outcome.exit_code != 0 || outcome.term_signal != 0) throw failure(plugin, outcome);
  if (!outcome.err.empty()) {
    if (options.stderr_sink != nullptr) {
      options.stderr_sink->write(outcome.err);
    } else {
      os::DescriptorSink(2).write(outcome.err);
    }
  }
  return std::move(outcome.out);
}

}  // namespace

namespace detail {

std::string run_delegate(std::string_view command, std::string_view plugin, std::string_view config,
                         const LateConfig& late, const Environment& env, const DelegateOptions& options) {
  const int depth = delegation_depth(env);
  if (depth >= kMaxDelegationDepth) {
    throw Error(kInvalidNetworkConfig,
                fmt::format("delegating to plugin {} would nest plugins more than {} deep: the config's delegate "
                            "(its ipam \"type\") leads back to a plugin that is already running",
                            plugin, kMaxDelegationDepth));
  }
  const auto program = find_plugin(plugin, split_plugin_path(env.get_or("CNI_PATH", "")));
  Environment child_env = env;
  child_env.set("CNI_COMMAND", std::string(command));
  child_env.set(std::string(kDepthVariable), std::to_string(depth + 1));

  os::ProcessSpec spec;
  // WINCNI_DELEGATE_TIMEOUT_MS: a node whose IPAM is slow may need longer;
  // tests need shorter.
  const auto setting = milliseconds_setting(env.get_or("WINCNI_DELEGATE_TIMEOUT_MS", ""));
  spec.timeout = setting ? *setting : options.timeout;
  // A delegate ourselves: our caller kills us when our budget is spent, so
  // our delegate must end before that (run_budget.hpp).
  if (const auto left = time_left(env)) {
    if (*left < kLeastTimeForDelegate) {
      throw Error(kTryAgainLater,
                  fmt::format("no time left to run delegate plugin {}: less than {} ms are left of the time the plugin "
                              "that started this one gave it ({})",
                              plugin, kLeastTimeForDelegate.count(), kTimeBudgetVariable));
    }
    spec.timeout = std::min(spec.timeout, *left);
  }
  const std::chrono::milliseconds budget = budget_for_delegate(spec.timeout);
  if (const PluginSpec* carried = in_process_plugin(program, env)) {
    std::optional<std::string> text = late ? late() : std::optional<std::string>(std::string(config));
    os::ProcessOutcome outcome;
    if (text) {
      // time_left reads a budget from this process's start, which was before
      // this call: what has passed since is added.
      const auto since_start = time_since_start();
      const auto shifted = budget > std::chrono::milliseconds::max() - since_start ? std::chrono::milliseconds::max()
                                                                                   : budget + since_start;
      child_env.set(std::string(kTimeBudgetVariable), std::to_string(shifted.count()));
      outcome = run_in_process(*carried, child_env, std::move(*text));
    } else {
      outcome.unfed = true;
      outcome.exit_code = 1;
    }
    return answer(plugin, std::move(outcome), spec.timeout, options);
  }
  child_env.set(std::string(kTimeBudgetVariable), std::to_string(budget.count()));
  spec.program = program;
  spec.env = child_env.to_list();
  spec.stdin_data = std::string(config);
  spec.stdin_later = late;
  return answer(plugin, run_process(spec), spec.timeout, options);
}

Result add_result(std::string_view plugin, const std::string& out, std::string_view version) {
  const auto doc = json::parse(out, nullptr, false);
  if (doc.is_discarded()) {
    throw Error(kDecodingFailure, fmt::format("delegate plugin {} printed a result that is not JSON", plugin),
                excerpt(out));
  }
  return Result::decode_in_own_version(doc, version);
}

}  // namespace detail

namespace {

std::string invoke(std::string_view command, std::string_view plugin, std::string_view config, const Environment& env,
                   const DelegateOptions& options) {
  return detail::run_delegate(command, plugin, config, {}, env, options);
}

}  // namespace

Result delegate_add(std::string_view plugin, std::string_view config, std::string_view version, const Environment& env,
                    const DelegateOptions& options) {
  return detail::add_result(plugin, invoke("ADD", plugin, config, env, options), version);
}

void delegate_del(std::string_view plugin, std::string_view config, const Environment& env,
                  const DelegateOptions& options) {
  invoke("DEL", plugin, config, env, options);
}

void delegate_check(std::string_view plugin, std::string_view config, const Environment& env,
                    const DelegateOptions& options) {
  invoke("CHECK", plugin, config, env, options);
}

void delegate_gc(std::string_view plugin, std::string_view config, const Environment& env,
                 const DelegateOptions& options) {
  invoke("GC", plugin, config, env, options);
}

void delegate_status(std::string_view plugin, std::string_view config, const Environment& env,
                     const DelegateOptions& options) {
  invoke("STATUS", plugin, config, env, options);
}

}  // namespace wincni::cni
