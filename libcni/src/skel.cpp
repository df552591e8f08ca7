#include "wincni/cni/skel.hpp"

#include "wincni/cni/stdin_text.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "wincni/os/standard_descriptors.hpp"
#include "wincni/cni/build_identity.hpp"
#include "wincni/cni/carried_plugins.hpp"
#include "wincni/cni/cni_env.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/os/error_dialogs.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/cni/version.hpp"

namespace wincni::cni {

namespace {

const std::vector<std::string>& supported_versions(const PluginSpec& spec) {
  return spec.supported_versions.empty() ? known_versions() : spec.supported_versions;
}

bool is_known_command(std::string_view command) {
  for (std::string_view known : {"ADD", "DEL", "CHECK", "GC", "STATUS"}) {
    if (command == known) return true;
  }
  return false;
}

std::string usage_text(const PluginSpec& spec) {
  return fmt::format(
      "Usage: {0} [--help | --version]\n"
      "{0} is a CNI plugin: a container runtime runs it with the CNI_* variables below\n"
      "and the network configuration as JSON on stdin. The result or the error is\n"
      "printed as JSON on stdout.\n"
      "\n"
      "CNI environment:\n"
      "  CNI_COMMAND      ADD, DEL, CHECK, GC, STATUS or VERSION\n"
      "  CNI_CONTAINERID  container ID (required by ADD, CHECK, DEL)\n"
      "  CNI_NETNS        network namespace (required by ADD, CHECK)\n"
      "  CNI_IFNAME       interface name (required by ADD, CHECK, DEL)\n"
      "  CNI_ARGS         optional K=V;K=V pairs\n"
      "  CNI_PATH         directories searched for delegated plugins (required but by VERSION)\n"
      "\n"
      "Logging (the environment overrides the config keys):\n"
      "  WINCNI_LOG_FILE   or \"logFile\"   append log lines to this file; \"off\": none\n"
      "                    (default: C:\\var\\log\\wincni\\wincni.log on Windows, none elsewhere)\n"
      "  WINCNI_LOG_LEVEL  or \"logLevel\"  error, warn, info (default) or debug\n"
      "  WINCNI_LOG_STDERR                also log to stderr, at this level\n"
      "\n"
      "CNI protocol versions supported: {1}\n",
      spec.name, fmt::join(supported_versions(spec), ", "));
}

// The version an error is reported in: the config's when it is one libcni
// knows, else the newest (the config could not be read, or asks for
// something unknown).
std::string error_version(const nlohmann::json& document) {
  if (!document.is_object()) return std::string(kCurrentVersion);
  const nlohmann::json* version = find_key(document, "cniVersion");
  if (version == nullptr || version->is_null()) return "0.1.0";
  if (version->is_string()) {
    const std::string text = version->get<std::string>();
    if (text.empty()) return "0.1.0";
    if (is_known_version(text)) return text;
  }
  return std::string(kCurrentVersion);
}

// Invalid UTF-8 from a handler's message must not make the answer itself fail.
template <typename Json>
std::string dump_line(const Json& json) {
  return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string error_json(const Error& error, std::string_view version) {
  nlohmann::ordered_json j;
  j["cniVersion"] = version;
  j["code"] = error.code();
  j["msg"] = error.msg();
  if (!error.details().empty()) j["details"] = error.details();
  return dump_line(j);
}

// No config a runtime writes comes near this; a bigger stdin is refused
// before it is read whole, since parsing costs many times its size (40 MB
// took host-local 1 GB and 14 s).
constexpr std::size_t kMaxStdinBytes = 16 * 1024 * 1024;

// Go's skel reads all of stdin; a read error is code 5, not an empty config.
std::string read_stdin(os::ByteSource& in) {
  std::optional<std::string> text;
  try {
    text = read_at_most(in, kMaxStdinBytes);
  } catch (const std::exception& e) {  // also a stdin too large to hold
    throw Error(kIoFailure, fmt::format("error reading from stdin: {}", e.what()));
  }
  if (!text) {
    throw Error(kDecodingFailure,
                fmt::format("the network configuration on stdin is over {} MiB: refused unread", kMaxStdinBytes >> 20));
  }
  return std::move(*text);
}

// CHECK needs a 0.4.0 config, GC and STATUS a 1.1.0 one, and the plugin must
// support some version at least as new as the config's.
void gate_command(std::string_view command, std::string_view config_version, std::string_view minimum,
                  const std::vector<std::string>& supported) {
  if (!version_at_least(config_version, minimum)) {
    throw Error(kIncompatibleVersion, fmt::format("config version does not allow {}", command));
  }
  const bool plugin_allows = std::any_of(supported.begin(), supported.end(),
                                         [&](const std::string& v) { return version_at_least(v, config_version); });
  if (!plugin_allows) throw Error(kIncompatibleVersion, fmt::format("plugin version does not allow {}", command));
}

Error missing_handler(const PluginSpec& spec, std::string_view command) {
  return Error(kInternal, fmt::format("{} does not implement {}", spec.name, command));
}

// Runs a validated command; returns what goes to stdout.
std::string dispatch(const PluginSpec& spec, const CommandContext& ctx) {
  const std::vector<std::string>& supported = supported_versions(spec);
  const std::string& version = ctx.config.cni_version();
  const std::string& command = ctx.command;
  if (command == "CHECK") gate_command(command, version, "0.4.0", supported);
  if (command == "GC" || command == "STATUS") gate_command(command, version, "1.1.0", supported);
  reconcile_version(version, supported);

  if (command == "ADD") {
    if (!spec.add) throw missing_handler(spec, command);
    // Encoded completely before anything is printed: a failed conversion
    // must leave stdout to the error alone.
    return dump_line(spec.add(ctx).encode(version));
  }
  if (command == "DEL") {
    if (!spec.del) throw missing_handler(spec, command);
    spec.del(ctx);
    return {};
  }
  const auto& handler = command == "CHECK" ? spec.check : command == "GC" ? spec.gc : spec.status;
  if (handler) handler(ctx);
  return {};
}

// One pass of the skel over one plugin invocation: the environment, stdin,
// the handler, and the logger that sees all of it.
class SkelRun {
 public:
  SkelRun(const PluginSpec& spec, const Environment& env, os::ByteSink& err) : spec_(spec), env_(env), err_(err) {}

  // The logger for this invocation, from the config once it has been read.
  const Logger& logger() {
    if (!logger_) {
      LogSettings settings = resolve_log_settings(env_, document_);
      if (spec_.repair_journal) settings.repair_journal = spec_.repair_journal(env_);
      logger_ = std::make_unique<Logger>(settings, spec_.name, &err_);
      logger_->set_invocation(invocation_.command, invocation_.container_id);
    }
    return *logger_;
  }

  // Everything that can fail with a CNI error; returns the stdout text.
  std::optional<std::string> run(os::ByteSource& in) {
    try {
      invocation_ = read_cni_invocation(env_);
    } catch (const Error&) {
      if (env_.get_or("CNI_COMMAND", "").empty()) return std::nullopt;
      throw;
    }
    if (invocation_.command == "VERSION") return encode_version_info(supported_versions(spec_));

    CommandContext& ctx = ctx_;
    // Decoded once here, so that delegates get UTF-8 too.
    ctx.stdin_data = stdin_as_utf8(read_stdin(in));
    // Read leniently first so that an error about the name can still be
    // reported in the config's version; the checks come from the second read.
    document_ = nlohmann::json::parse(ctx.stdin_data, nullptr, false);
    document_ = parse_network_config(ctx.stdin_data);
    if (!is_known_command(invocation_.command)) {
      throw Error(kInvalidEnvironment, fmt::format("unknown CNI_COMMAND: {}", invocation_.command));
    }
    ctx.config = NetConf::from_json(document_);
    ctx.command = invocation_.command;
    ctx.container_id = invocation_.container_id;
    ctx.netns = invocation_.netns;
    ctx.ifname = invocation_.ifname;
    ctx.cni_args = invocation_.args;
    ctx.cni_path = invocation_.path;
    ctx.env = &delegation_env();
    ctx.logger = &logger();
    return dispatch(spec_, ctx);
  }

  // An ADD whose result never reached the runtime did not happen for it: the
  // plugin's DEL gives back what the ADD took. Best effort; the runtime's own
  // DEL or GC is the fallback.
  void undo_add() {
    if (ctx_.command != "ADD" || !spec_.del) return;
    CommandContext del = ctx_;
    del.command = "DEL";
    try {
      spec_.del(del);
      logger().warn("the ADD's result could not be written to stdout; undone with DEL");
    } catch (const std::exception& e) {
      logger().error("the ADD's result could not be written to stdout, and DEL failed: {}", e.what());
    }
  }

  const nlohmann::json& document() const { return document_; }
  const CniInvocation& invocation() const { return invocation_; }

 private:
  // The environment the handlers and their delegates see: the config's
  // "delegateInProcess": false is made the variable every delegation below
  // reads (carried_plugins.hpp), whatever config it is given.
  const Environment& delegation_env() {
    const nlohmann::json* key = find_key(document_, kInProcessConfigKey);
    if (key == nullptr || !key->is_boolean() || key->get<bool>()) return env_;
    process_path_env_ = env_;
    process_path_env_.set(std::string(kInProcessVariable), "0");
    return process_path_env_;
  }

  const PluginSpec& spec_;
  const Environment& env_;
  os::ByteSink& err_;
  CniInvocation invocation_;
  CommandContext ctx_;  // empty until the command is known and its config read
  nlohmann::json document_;
  std::unique_ptr<Logger> logger_;
  Environment process_path_env_;
};

// One summary line per command, whatever happened.
void log_outcome(SkelRun& invocation, const std::optional<Error>& failure,
                 std::chrono::steady_clock::time_point started) {
  const double elapsed_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  const Logger& logger = invocation.logger();
  if (failure) {
    logger.error("failed with code {} in {:.1f} ms: {}{}{}", failure->code(), elapsed_ms, failure->msg(),
                 failure->details().empty() ? "" : "; ", failure->details());
  } else {
    logger.info("ok in {:.1f} ms", elapsed_ms);
  }
}

int run_command(const PluginSpec& spec, const Environment& env, os::ByteSource& in, os::ByteSink& out,
                os::ByteSink& err) {
  const auto started = std::chrono::steady_clock::now();
  SkelRun invocation(spec, env, err);
  std::optional<Error> failure;
  bool stdout_failed = false;
  try {
    std::optional<std::string> answer = invocation.run(in);
    if (!answer) {
      err.write(about_text(spec));
      return 0;
    }
    if (!out.write(*answer)) {
      // The runtime is gone, or closed stdout: nobody learns of a success.
      stdout_failed = true;
      invocation.undo_add();
      failure = Error(kIoFailure, "cannot write the result to stdout");
    }
  } catch (const Error& e) {
    failure = e;
  } catch (const std::exception& e) {
    failure = Error(kInternal, e.what());
  } catch (...) {
    failure = Error(kInternal, "unknown exception");
  }
  // Not on stdout after a failed write there: part of the result may be out
  // already, and an error behind it would make the whole unparsable. On
  // stderr instead, which a runtime keeps in its log.
  if (failure) {
    const std::string error = error_json(*failure, error_version(invocation.document()));
    if (stdout_failed) {
      err.write(error);
    } else {
      out.write(error);
    }
  }
  log_outcome(invocation, failure, started);
  return failure ? 1 : 0;
}

}  // namespace

std::string about_text(const PluginSpec& spec) {
  const std::string title = spec.description.empty() ? spec.name : spec.name + " " + spec.description;
  return fmt::format("{}\nCNI protocol versions supported: {}\n", version_line(title),
                     fmt::join(supported_versions(spec), ", "));
}

int run_plugin(const PluginSpec& spec, const std::vector<std::string>& argv, const Environment& env, os::ByteSource& in,
               os::ByteSink& out, os::ByteSink& err) {
  try {
    if (argv.size() > 1) {
      const std::string& option = argv[1];
      if (option == "--help" || option == "-h") {
        out.write(usage_text(spec));
        return 0;
      }
      if (option == "--version") {
        out.write(version_line(spec.name) + '\n');
        return 0;
      }
      err.write(fmt::format("{}: unknown option {}\n{}", spec.name, option, usage_text(spec)));
      return 2;
    }
    return run_command(spec, env, in, out, err);
  } catch (...) {
    // Only the output itself can get here (e.g. bad_alloc while writing);
    // there is nobody left to tell.
    return 1;
  }
}

int plugin_main(const PluginSpec& spec, int argc, char** argv, std::vector<const PluginSpec*> carried) {
  try {
    carry_plugins(std::move(carried));
    os::fail_without_error_dialogs();
    os::open_missing_standard_descriptors();
    os::survive_broken_pipes();
    os::keep_children_exit_statuses();
    std::vector<std::string> args(argv, argv + argc);
    os::DescriptorSource in(0);
    os::DescriptorSink out(1), err(2);
    return run_plugin(spec, args, Environment::from_process(), in, out, err);
  } catch (...) {
    // Out of memory before the skel ran, most likely: a fixed text, which
    // needs none, so that a runtime's log says more than an exit status.
    os::DescriptorSink(2).write("wincni: the plugin failed before it could read its command\n");
    return 1;
  }
}

}  // namespace wincni::cni
