#include "wincni/cni/carried_plugins.hpp"

#include <utility>

namespace wincni::cni {
namespace {

// Written once by main's thread before any delegation (plugin_main), read
// by every delegation after: no lock needed.
std::vector<const PluginSpec*>& carried() {
  static std::vector<const PluginSpec*> plugins;
  return plugins;
}

}  // namespace

void carry_plugins(std::vector<const PluginSpec*> plugins) { carried() = std::move(plugins); }

const PluginSpec* carried_plugin(std::string_view program) {
  for (const PluginSpec* spec : carried()) {
    if (spec->name == program) return spec;
  }
  return nullptr;
}

bool carries_any_plugin() { return !carried().empty(); }

bool in_process_allowed(const Environment& env) {
  const std::string value = env.get_or(kInProcessVariable, "");
  return value != "0" && value != "false";
}

}  // namespace wincni::cni
