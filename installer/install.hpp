#pragma once
// One run of wincni-install: everything is checked and rendered before
// anything on the node changes; then leftovers of earlier runs are
// removed, the binaries installed, the CNI config and (with a cluster CIDR)
// flanneld's net-conf.json written. What changed is reported line by line;
// a second run reports every file unchanged.

#include <string>
#include <vector>

#include "install_options.hpp"
#include "wincni/os/byte_streams.hpp"

namespace wincni::installer {

// The binaries a node gets, as file names on this platform.
std::vector<std::string> suite_binaries();

// Where this release's binaries are: --source-dir, else the installer's
// own folder.
std::string release_dir(const InstallOptions& options);

// Throws std::exception on failure; what was done before it is reported.
void install(const InstallOptions& options, os::ByteSink& report);

}  // namespace wincni::installer
