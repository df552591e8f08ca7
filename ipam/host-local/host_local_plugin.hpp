#pragma once
// host-local as the skel runs it: name, about text and handlers.

#include "wincni/cni/skel.hpp"

namespace wincni::hostlocal {

cni::PluginSpec host_local_plugin();

}  // namespace wincni::hostlocal
