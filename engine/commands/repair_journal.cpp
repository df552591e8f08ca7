#include "wincni/engine/repair_journal.hpp"

#include "commands/plugin_data_dir.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::engine {

std::string repair_journal_path(const cni::Environment& env) {
  return os::private_files::join(plugin_data_dir(env), "repairs.log");
}

}  // namespace wincni::engine
