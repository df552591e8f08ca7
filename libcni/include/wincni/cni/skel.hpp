#pragma once
// The skeleton every plugin's main() calls: it validates the environment and
// stdin, reconciles versions, dispatches to the handlers, and turns results
// and errors into stdout JSON and an exit code.

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "wincni/cni/config.hpp"
#include "wincni/cni/env.hpp"
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
};

struct PluginSpec {
  std::string name;         // "host-local"
  std::string description;  // one line for the about text
  // Empty means every version libcni knows (0.1.0 ... 1.1.0).
  std::vector<std::string> supported_versions;

  // ADD returns the result in the internal model; the skel encodes it in the
  // config's cniVersion. Handlers report failure by throwing cni::Error; any
  // other exception becomes code 999 with its what().
  std::function<Result(const CommandContext&)> add;
  std::function<void(const CommandContext&)> del, check, gc, status;
};

// Runs one invocation against an explicit environment and streams; returns
// the process exit code. Used by plugin_main and by tests.
int run_plugin(const PluginSpec& spec, const std::vector<std::string>& argv, const Environment& env,
               std::istream& in, std::ostream& out, std::ostream& err);

// For main(): the real argv, environment, stdin, stdout and stderr.
int plugin_main(const PluginSpec& spec, int argc, char** argv);

}  // namespace wincni::cni
