#pragma once
// The plugins an executable carries besides its own, which its delegations
// may run in process instead of starting their files: win-bridge and
// win-overlay carry host-local; flannel carries both of them and host-local.
// A delegation runs one of them only when the file CNI_PATH resolves is that
// plugin of this very build (plugin_identity.hpp), so that the answer is the
// one the file would have given (docs/engine.md, "Delegates in process").

#include <string_view>
#include <vector>

#include "wincni/cni/env.hpp"
#include "wincni/cni/skel.hpp"

namespace wincni::cni {

// Set by plugin_main before the command runs; the specs must outlive it.
void carry_plugins(std::vector<const PluginSpec*> plugins);

// The carried plugin named `program`, or nullptr.
const PluginSpec* carried_plugin(std::string_view program);
bool carries_any_plugin();

// WINCNI_DELEGATE_IN_PROCESS=0 (or false) in the environment, or
// "delegateInProcess": false in a plugin's config (the skel turns the key
// into the variable, so that it holds for every delegation below), makes
// every delegation start its plugin's file.
inline constexpr std::string_view kInProcessVariable = "WINCNI_DELEGATE_IN_PROCESS";
inline constexpr std::string_view kInProcessConfigKey = "delegateInProcess";
bool in_process_allowed(const Environment& env);

}  // namespace wincni::cni
