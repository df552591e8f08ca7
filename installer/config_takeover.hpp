#pragma once
// The configs another plugin left in the runtime's config folder that sort
// before ours: a runtime loads the first config in name order, so while one
// is there pods keep getting that plugin, not wincni (sig-windows-tools'
// 10-flannel.conf before our 10-flannel.conflist is the usual case). The
// installer refuses to leave a node so; with --take-over it moves them into
// a folder beside them that no runtime loads, from where --uninstall puts
// them back.

#include <string>
#include <vector>

#include "wincni/os/byte_streams.hpp"

namespace wincni::installer {

// The folder in `conf_dir` the configs are moved to. Runtimes read only the
// config folder's own files (libcni's ConfFiles does not descend).
inline constexpr const char* kTakenOverFolder = "wincni-taken-over";

// The config files of `conf_dir` a runtime would load before `conf_name`,
// in name order.
std::vector<std::string> configs_loaded_before(const std::string& conf_dir, const std::string& conf_name);

// Throws when `names` cannot all be moved: the taken-over folder is a link,
// or already keeps one of the names (what an earlier take-over kept is never
// overwritten). The installer asks before it writes anything.
void check_take_over(const std::string& conf_dir, const std::vector<std::string>& names);

// Moves each of `names` from `conf_dir` into its taken-over folder, one line
// each on `report`, after check_take_over.
void take_over(const std::string& conf_dir, const std::vector<std::string>& names, os::ByteSink& report);

}  // namespace wincni::installer
