// Fills an emulated HNS with N endpoints on one network, through the
// emulator's own API (as a plugin would reach it), so that add_del_at_scale.py
// can time one ADD+DEL on a node that already carries them.
//
// usage: hns-store-populate STATE_DIR NETWORK_NAME COUNT FIRST_ADDRESS
//   Endpoint i gets FIRST_ADDRESS + i (an explicit address, away from the
//   range host-local hands the timed ADD) and a MAC of its own outside the
//   host's pool (which holds 4,096 MACs, fewer than a large node needs).

#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "wincni/cni/ip.hpp"
#include "wincni/hns/emulator/emulator.hpp"
#include "wincni/hns/schema/json_io.hpp"

using namespace wincni;
using namespace wincni::hns;

namespace {

Guid network_named(emulator::Emulator& hns, const std::string& name) {
  HcnReply ids = hns.enumerate(HcnObject::Network, fmt::format(R"({{"Filter":"{{\"Name\":\"{}\"}}"}})", name));
  if (!ids.ok()) throw std::runtime_error("enumerating networks failed: " + ids.error_record);
  auto list = nlohmann::json::parse(ids.output);
  if (list.empty()) throw std::runtime_error("no network named " + name);
  return *Guid::parse(list.front().get<std::string>());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: hns-store-populate STATE_DIR NETWORK_NAME COUNT FIRST_ADDRESS\n";
    return 2;
  }
  emulator::EmulatorConfig config;
  config.state_dir = argv[1];
  emulator::Emulator hns(config);
  const long count = std::strtol(argv[3], nullptr, 10);
  auto first = cni::IpAddress::parse(argv[4]);
  if (!first) {
    std::cerr << argv[4] << " is not an IP address\n";
    return 2;
  }
  Guid network = network_named(hns, argv[2]);
  HcnHandle network_handle = nullptr;
  if (!hns.open(HcnObject::Network, network, &network_handle).ok()) return 1;
  for (long i = 0; i < count; ++i) {
    std::string settings = fmt::format(
        R"({{"SchemaVersion":{{"Major":2,"Minor":0}},"Name":"populated-{}_{}","IpConfigurations":[{{"IpAddress":"{}"}}],)"
        R"("MacAddress":"02-11-00-00-{:02X}-{:02X}"}})",
        i, argv[2], first->plus(static_cast<std::uint64_t>(i)).str(), (i >> 8) & 0xFF, i & 0xFF);
    HcnHandle endpoint = nullptr;
    HcnReply created = hns.create(HcnObject::Endpoint, network_handle, Guid{}, settings, &endpoint);
    if (!created.ok()) {
      std::cerr << "endpoint " << i << ": " << created.error_record << "\n";
      return 1;
    }
    hns.close(HcnObject::Endpoint, endpoint);
  }
  hns.close(HcnObject::Network, network_handle);
  return 0;
}
