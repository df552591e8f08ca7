#pragma once
// Another project's plugin that a wincni binary replaces (the reference
// flannel.exe, win-bridge.exe or host-local.exe in C:\opt\cni\bin): a copy
// is kept in <bin-dir>\wincni-replaced\ before it is replaced, and
// --uninstall puts it back, so that undoing an installation leaves the node
// with the plugins it had, not with none. A binary is another project's when
// it lacks the suite's build marker (wincni/cni/build_identity.hpp); an
// older wincni build is replaced without a copy. A runtime reads only the
// bin folder's own files (libcni's FindInPath does not descend).

#include <string>

#include "wincni/os/byte_streams.hpp"

namespace wincni::installer {

inline constexpr const char* kReplacedFolder = "wincni-replaced";

// Before `build` replaces bin_dir/file_name: keeps what is there when it is
// another project's (the copy is the last one replaced), one report line.
// Throws when the copy cannot be made (nothing is replaced then).
void keep_replaced_binary(const std::string& bin_dir, const std::string& file_name, const std::string& build,
                          os::ByteSink& report);

// After --uninstall removed ours: the kept copy back into bin_dir/file_name
// when that name is free, one report line.
void restore_replaced_binary(const std::string& bin_dir, const std::string& file_name, os::ByteSink& report);

}  // namespace wincni::installer
