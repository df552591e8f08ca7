#pragma once
// wincni-install --uninstall: undoes an installation without removing
// anything that is not provably the installer's, and never what runs.
//   - each suite binary in the bin folder is removed only when it is byte for
//     byte the build beside the installer (this release's); another build is
//     kept and named; a running one is kept for a later run;
//   - our CNI config is moved aside into <conf-dir>\wincni-uninstalled\ (an
//     operator's edits to it are theirs to delete), never deleted;
//   - what --take-over moved aside is put back, unless a file of that name
//     has appeared in the config folder since;
//   - flanneld's net-conf.json and the HNS networks are left alone: flanneld
//     may still run, and a network removed cuts off every pod on it.

#include <string>

#include "install_options.hpp"
#include "wincni/os/byte_streams.hpp"

namespace wincni::installer {

// The folder our config is moved to, beside the taken-over one.
inline constexpr const char* kUninstalledFolder = "wincni-uninstalled";

// One line per file on `report`. Throws std::exception when a folder cannot
// be read; what was done before is reported.
void uninstall(const InstallOptions& options, os::ByteSink& report);

}  // namespace wincni::installer
