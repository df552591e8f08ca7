#include "wincni/endpoint/network_locator.hpp"

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "wincni/cni/file_lock.hpp"
#include "wincni/endpoint/error_codes.hpp"
#include "wincni/hns/hns_error.hpp"

namespace wincni::endpoint {

namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(200);

NetworkView create_under_lock(HnsHost& host, const EndpointConfig& config, const EndpointFlavor& flavor,
                              const std::string& data_dir, const cni::Logger& log) {
  std::error_code ignored;  // a directory that cannot be made fails the lock's open, with the path
  std::filesystem::create_directories(std::filesystem::path(std::u8string(data_dir.begin(), data_dir.end())), ignored);
  cni::FileLock lock(network_lock_path(data_dir));
  // Whoever held the lock before may have created it.
  if (auto network = host.find_network(config.network)) return *network;
  const hns::NetworkType type = flavor.type_to_create(config);
  log.info("creating network {} ({}) on adapter {}", config.network, hns::network_type_name(type),
           config.blueprint->adapter);
  try {
    return host.create_network(config.network, type, *config.blueprint);
  } catch (const hns::HnsError& e) {
    // Someone who does not take our lock (flanneld, an operator) was faster.
    if (e.hresult() != hns::hr::kNetworkAlreadyExists && e.hresult() != hns::hr::kAlreadyExists) throw;
    if (auto network = host.find_network(config.network)) return *network;
    throw;
  }
}

NetworkView wait_for(HnsHost& host, const EndpointConfig& config, const cni::Logger& log) {
  const auto deadline = std::chrono::steady_clock::now() + config.network_wait;
  log.info("network {} does not exist yet; waiting up to {} ms for it", config.network, config.network_wait.count());
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) break;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(kPollInterval, deadline - now));
    if (auto network = host.find_network(config.network)) return *network;
  }
  throw cni::Error(cni::kTryAgainLater,
                   fmt::format("network \"{}\" not found after waiting {} ms: check that whatever creates it (flanneld) "
                               "runs on this node and has created it, or give the config \"master\" and an ipam "
                               "subnet so that the plugin can create it",
                               config.network, config.network_wait.count()));
}

}  // namespace

void require_accepted_type(const NetworkView& network, const EndpointFlavor& flavor) {
  if (flavor.accepts(network.type)) return;
  throw cni::Error(kWrongNetworkType, fmt::format("network \"{}\" is of type {}; {} needs {}", network.name,
                                                  hns::network_type_name(network.type), flavor.plugin_name(),
                                                  flavor.accepted_types()));
}

NetworkView locate_network(HnsHost& host, const EndpointConfig& config, const EndpointFlavor& flavor,
                           const std::string& data_dir, const cni::Logger& log) {
  std::optional<NetworkView> network = host.find_network(config.network);
  if (!network) {
    network = config.blueprint ? create_under_lock(host, config, flavor, data_dir, log) : wait_for(host, config, log);
  }
  require_accepted_type(*network, flavor);
  return *network;
}

std::string network_lock_path(const std::string& data_dir) { return data_dir + "/network-create.lock"; }

}  // namespace wincni::endpoint
