#include "flannel_plugin.hpp"

#include "wincni/engine/repair_journal.hpp"

namespace wincni::flannel {

cni::PluginSpec FlannelPlugin::plugin_spec() const {
  cni::PluginSpec spec = cni::spec_of(
      *this, "flannel", "meta plugin: flanneld's subnet.env to a win-bridge (host-gw) or win-overlay (vxlan) delegate");
  spec.repair_journal = engine::repair_journal_path;
  return spec;
}

}  // namespace wincni::flannel
