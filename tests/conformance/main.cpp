#include "conformance_plugin.hpp"

int main(int argc, char** argv) {
  return wincni::cni::plugin_main(wincni::test::conformance_plugin_spec(wincni::cni::Environment::from_process()), argc,
                                  argv);
}
