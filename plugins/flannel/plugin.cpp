#include "plugin.hpp"

namespace wincni::flannel {

cni::PluginSpec FlannelPlugin::plugin_spec() const {
  return cni::spec_of(*this, "flannel",
                      "meta plugin: flanneld's subnet.env to a win-bridge (host-gw) or win-overlay (vxlan) delegate");
}

}  // namespace wincni::flannel
