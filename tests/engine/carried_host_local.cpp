// The engine's flows delegate to host-local as the plugins do
// (plugins/win-bridge/main.cpp): in process when the file CNI_PATH resolves
// is host-local of this build, as a process under the suite
// 'engine-process-delegates' (WINCNI_DELEGATE_IN_PROCESS=0).

#include "host_local_plugin.hpp"
#include "wincni/cni/carried_plugins.hpp"

namespace {

const wincni::cni::PluginSpec host_local = wincni::hostlocal::host_local_plugin();
const bool host_local_carried = (wincni::cni::carry_plugins({&host_local}), true);

}  // namespace
