#pragma once
// Which plugin of which build an executable file is, known without starting
// it: each plugin's main.cpp puts its name and the build's fingerprint in a
// section of its own (".wincni"), and a caller reads that section through
// the file's headers (executable_section.hpp). The delegation runs a plugin
// it carries in process only when the file CNI_PATH resolves says it is
// that very plugin of this very build (docs/engine.md, "Delegates in
// process").

#include <optional>
#include <string>
#include <string_view>

// WINCNI_BUILD_FINGERPRINT: generated at every build from the contents of
// every source file that goes into a plugin (build_fingerprint.py).
#include "build_fingerprint.h"

// At namespace scope in a plugin's main.cpp: the identity its executable
// carries. `used` keeps it in the file although nothing reads it there.
#define WINCNI_PLUGIN_IDENTITY(program)                                        \
  extern const char wincni_plugin_identity[];                                  \
  [[gnu::section(".wincni"), gnu::used]] const char wincni_plugin_identity[] = \
      "wincni-plugin\n" program "\n" WINCNI_BUILD_FINGERPRINT "\n"

namespace wincni::cni {

inline constexpr std::string_view kIdentitySection = ".wincni";

struct PluginIdentity {
  std::string program;      // "host-local"
  std::string fingerprint;  // build_fingerprint() of the build it came from
};

// This build's fingerprint: 32 hex digits.
std::string_view build_fingerprint();

// The identity in a section's bytes ("wincni-plugin\n<program>\n<fingerprint>\n",
// zero padding after it allowed); nullopt for anything else.
std::optional<PluginIdentity> parse_plugin_identity(std::string_view section);

// The identity the executable at `path` carries; nullopt when it carries
// none (another project's plugin, a script, a file that cannot be read).
std::optional<PluginIdentity> plugin_identity_of(const std::string& path);

// The plugin the file at `path` is, when it is one of this build:
// plugin_identity_of's program when its fingerprint is ours, else nullopt.
std::optional<std::string> same_build_program(const std::string& path);

}  // namespace wincni::cni
