#include "in_process_delegate.hpp"

#include "wincni/cni/carried_plugins.hpp"
#include "wincni/cni/plugin_identity.hpp"
#include "wincni/cni/plugin_path.hpp"
#include "wincni/os/byte_streams.hpp"
#include "wincni/os/executable_file.hpp"

namespace wincni::cni::detail {

const PluginSpec* in_process_plugin(const std::string& program, const Environment& env) {
  if (!in_process_allowed(env)) return nullptr;
  // No file is read when nothing is carried (host-local itself, a test).
  if (!carries_any_plugin()) return nullptr;
  const auto identity = same_build_program(program);
  // Where starting the file would be refused, so is running it in process.
  if (!identity || !os::may_execute(program)) return nullptr;
  return carried_plugin(*identity);
}

bool delegate_runs_in_process(std::string_view plugin, const Environment& env) {
  if (!carries_any_plugin() || !in_process_allowed(env)) return false;
  try {
    return in_process_plugin(find_plugin(plugin, split_plugin_path(env.get_or("CNI_PATH", ""))), env) != nullptr;
  } catch (const std::exception&) {
    return false;
  }
}

os::ProcessOutcome run_in_process(const PluginSpec& spec, const Environment& child_env, std::string config) {
  os::StringSource in(std::move(config));
  os::StringSink out, err;
  os::ProcessOutcome outcome;
  outcome.exit_code = run_plugin(spec, {spec.name}, child_env, in, out, err);
  outcome.out = std::move(out.text);
  outcome.err = std::move(err.text);
  return outcome;
}

}  // namespace wincni::cni::detail
