#include "drivers.hpp"

#include <chrono>
#include <sstream>

#include "conformance_plugin.hpp"
#include "wincni/os/process.hpp"

namespace wincni::test {

nlohmann::json Outcome::answer() const { return nlohmann::json::parse(out); }

Outcome InProcess::run(const cni::Environment& env, const std::string& stdin_text) {
  os::StringSource in(stdin_text);
  os::StringSink out, err;
  Outcome outcome;
  outcome.exit_code = cni::run_plugin(conformance_plugin_spec(env), {"wincni-conformance-plugin"}, env, in, out, err);
  outcome.out = out.text;
  outcome.err = err.text;
  return outcome;
}

Outcome AsBinary::run(const cni::Environment& env, const std::string& stdin_text) {
  os::ProcessSpec spec;
  spec.program = conformance_plugin_program();
  spec.env = env.to_list();
  spec.stdin_data = stdin_text;
  spec.timeout = std::chrono::seconds(60);  // a safety net; a plugin answers in milliseconds
  const os::ProcessOutcome run = os::run_process(spec);
  Outcome outcome;
  outcome.exit_code = run.timed_out || run.term_signal != 0 ? -1 : run.exit_code;
  outcome.out = run.out;
  outcome.err = run.err;
  return outcome;
}

std::string conformance_plugin_program() { return WINCNI_CONFORMANCE_PLUGIN; }

}  // namespace wincni::test
