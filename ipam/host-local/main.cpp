#include "host_local_plugin.hpp"

int main(int argc, char** argv) { return wincni::cni::plugin_main(wincni::hostlocal::host_local_plugin(), argc, argv); }
