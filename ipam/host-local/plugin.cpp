#include "host_local_plugin.hpp"

#include "host_local_commands.hpp"

namespace wincni::hostlocal {

cni::PluginSpec host_local_plugin() {
  cni::PluginSpec spec;
  spec.name = "host-local";
  spec.description = "IPAM: addresses from local ranges, on-disk compatible with the reference host-local";
  spec.add = cmd_add;
  spec.del = cmd_del;
  spec.check = cmd_check;
  spec.gc = cmd_gc;
  spec.status = cmd_status;
  return spec;
}

}  // namespace wincni::hostlocal
