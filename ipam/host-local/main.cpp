#include "host_local_plugin.hpp"
#include "wincni/cni/plugin_identity.hpp"

WINCNI_PLUGIN_IDENTITY("host-local");

int main(int argc, char** argv) { return wincni::cni::plugin_main(wincni::hostlocal::host_local_plugin(), argc, argv); }
