// Windows: hnsctl talks to the real HNS; there is no emulated host to set up.

#include "emulated_host.hpp"

namespace wincni::hnsctl {

std::unique_ptr<EmulatedHost> emulated_host(hns::HcnApi&) { return nullptr; }

}  // namespace wincni::hnsctl
