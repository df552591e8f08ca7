// populate-node STATE_DIR TEMPLATE_ENDPOINT COUNT FIRST_IPV4
//
// Puts COUNT copies of an endpoint a real ADD made (TEMPLATE_ENDPOINT, by
// name) on an emulated node in one update of its state, for the scale
// benchmark: endpoints "scale-<address>_<network>" at FIRST_IPV4 and the
// addresses after it. Creating 5000 endpoints by ADDs would cost minutes;
// here it is one update of the store. The copies are detached, and their MACs are given ones
// outside HNS's pool (0E-2A-<address>, as win-overlay gives them), so the
// pool the measured ADDs draw from stays as it was. The caller reserves the
// same addresses in host-local's store, so no measured ADD is handed one.
// Prints how many endpoints the network has afterwards.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "state_store.hpp"
#include "wincni/hns/mac_address.hpp"

using namespace wincni;

namespace {

hns::emulator::EndpointRecord copy_of(const hns::emulator::EndpointRecord& original, const std::string& network,
                                      const cni::IpAddress& address) {
  hns::emulator::EndpointRecord copy = original;
  copy.endpoint.id = hns::Guid::generate();
  copy.endpoint.name = "scale-" + address.str() + "_" + network;
  copy.endpoint.host_compute_namespace = hns::Guid{};
  copy.shared_containers.clear();
  copy.host_attached = false;
  copy.endpoint.ip_configurations.at(0).ip_address = address;
  const auto& octets = address.bytes();
  const std::uint64_t overlay_prefix = 0x0E2AULL << 32;
  copy.endpoint.mac_address = hns::MacAddress::from_value(overlay_prefix | (std::uint64_t{octets[0]} << 24) |
                                                          (octets[1] << 16) | (octets[2] << 8) | octets[3])
                                  .str();
  return copy;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fputs("usage: populate-node STATE_DIR TEMPLATE_ENDPOINT COUNT FIRST_IPV4\n", stderr);
    return 2;
  }
  const std::string template_name = argv[2];
  const int count = std::atoi(argv[3]);
  const auto first = cni::IpAddress::parse(argv[4]);
  if (count < 0 || !first || !first->is_v4()) {
    std::fputs("populate-node: COUNT must be a number and FIRST_IPV4 an IPv4 address\n", stderr);
    return 2;
  }
  bool found = false;
  std::size_t on_network = 0;
  hns::emulator::StateStore(argv[1]).update([&](hns::emulator::EmulatorState& state) {
    const hns::emulator::EndpointRecord* original = nullptr;
    for (const auto* record : state.endpoints_maybe_named(template_name)) {
      if (record->endpoint.name == template_name) original = record;
    }
    if (original == nullptr || original->endpoint.ip_configurations.empty()) return false;
    const hns::emulator::EndpointRecord model = *original;
    const hns::Guid network_id = model.endpoint.host_compute_network;
    const hns::emulator::NetworkRecord* network = state.find_network(network_id);
    const std::string network_name = network != nullptr ? network->network.name : "network";
    for (int index = 0; index < count; ++index) state.add_endpoint(copy_of(model, network_name, first->plus(index)));
    on_network = state.endpoints_on_network(network_id).size();
    found = true;
    return true;
  });
  if (!found) {
    std::fprintf(stderr, "populate-node: no endpoint named %s with an address\n", template_name.c_str());
    return 1;
  }
  std::printf("%zu\n", on_network);
  return 0;
}
