// flannel: the meta plugin for Windows nodes that run flanneld.

#include "flannel_plugin.hpp"

int main(int argc, char** argv) {
  const wincni::flannel::FlannelPlugin plugin;
  return wincni::cni::plugin_main(plugin.plugin_spec(), argc, argv);
}
