#pragma once
// The skeleton every plugin's main() calls: it validates the environment and
// stdin, reconciles versions, dispatches to the handlers, and turns results
// and errors into stdout JSON and an exit code.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wincni/os/byte_streams.hpp"
#include "wincni/cni/config.hpp"
#include "wincni/cni/env.hpp"
#include "wincni/cni/log.hpp"
#include "wincni/cni/result.hpp"

namespace wincni::cni {

struct CommandContext {
  std::string command;       // ADD, DEL, CHECK, GC, STATUS
  std::string container_id;  // CNI_CONTAINERID ("" for GC/STATUS)
  std::string netns;         // CNI_NETNS (may be "" for DEL)
  std::string ifname;        // CNI_IFNAME
  std::string cni_args;      // raw CNI_ARGS
  std::string cni_path;      // raw CNI_PATH
  std::string stdin_data;    // verbatim, passed on to delegates
  NetConf config;
  const Environment* env = nullptr;  // the full environment, for delegation
  const Logger* logger = nullptr;    // set by the skel; see log.hpp

  // The invocation's logger, or a silent one when none was set (tests).
  const Logger& log() const { return logger != nullptr ? *logger : Logger::disabled(); }
};

struct PluginSpec {
  std::string name;         // "host-local"
  std::string description;  // one line for the about text
  // Empty means every version libcni knows (0.1.0 ... 1.1.0).
  std::vector<std::string> supported_versions;

  // ADD returns the result in the internal model; the skel encodes it in the
  // config's cniVersion. Handlers report failure by throwing cni::Error; any
  // other exception becomes code 999 with its what().
  //
  // A missing add or del handler fails that command with code 999 (a plugin
  // that cannot ADD or DEL is a build mistake). A missing check, gc or status
  // handler makes the command succeed after the version checks, as Go's skel
  // does with a nil callback: nothing to verify, nothing to collect, ready.
  std::function<Result(const CommandContext&)> add;
  std::function<void(const CommandContext&)> del, check, gc, status;
  // The repair journal's path for an invocation (LogSettings): where the
  // plugin keeps its data; unset, repairs go to the log file alone.
  std::function<std::string(const Environment&)> repair_journal;
};

// The spec of a plugin object with add, del, check, gc and status members
// (the endpoint engine, flannel); the object must outlive the spec.
template <class Plugin>
PluginSpec spec_of(const Plugin& plugin, std::string name, std::string description) {
  PluginSpec spec;
  spec.name = std::move(name);
  spec.description = std::move(description);
  spec.add = [&plugin](const CommandContext& ctx) { return plugin.add(ctx); };
  spec.del = [&plugin](const CommandContext& ctx) { plugin.del(ctx); };
  spec.check = [&plugin](const CommandContext& ctx) { plugin.check(ctx); };
  spec.gc = [&plugin](const CommandContext& ctx) { plugin.gc(ctx); };
  spec.status = [&plugin](const CommandContext& ctx) { plugin.status(ctx); };
  return spec;
}

// What the skel prints without CNI_COMMAND (on stderr, exit 0):
// "<name> <description> (wincni <version>, commit <commit>)\nCNI protocol versions supported: 0.1.0, ...\n".
std::string about_text(const PluginSpec& spec);

// Runs one invocation against an explicit environment and byte streams; returns
// the process exit code: 0 on success, 1 when an error was printed, 2 for an
// unknown command-line option. Used by plugin_main and by tests.
//
// argv[1] may be --help/-h (usage on `out`) or --version (the suite version
// on `out`); the CNI protocol itself passes no arguments.
//
// Order of checks, as Go's skel: CNI_* environment (code 4), VERSION
// (answered without reading stdin), stdin read (5), JSON (6) and network
// name (7), unknown command (4), version reconciliation and gating (1, or 6
// for a malformed cniVersion on CHECK/GC/STATUS), then the handler. Nothing
// but a result or an error JSON is written to `out`; no exception escapes.
int run_plugin(const PluginSpec& spec, const std::vector<std::string>& argv, const Environment& env, os::ByteSource& in,
               os::ByteSink& out, os::ByteSink& err);

// For main(): the real argv, environment, stdin, stdout and stderr.
// `carried`: the plugins this executable carries besides its own, which its
// delegations may run in process (carried_plugins.hpp); they must outlive
// the call.
int plugin_main(const PluginSpec& spec, int argc, char** argv, std::vector<const PluginSpec*> carried = {});

}  // namespace wincni::cni
