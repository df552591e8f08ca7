#include "commands/network_locator.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "commands/rollback.hpp"
#include "wincni/os/file_lock.hpp"
#include "wincni/os/private_files.hpp"
#include "plan/endpoint_marker.hpp"
#include "commands/host_endpoint.hpp"
#include "wincni/hns/hns_error.hpp"

namespace wincni::engine {

namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(200);

// The lock file's directory, private as every folder a plugin keeps; one
// that cannot be made fails the lock's open, which names the path. One that
// someone else made first, or may write, is refused: they could squat the
// lock or put a link in its place.
void make_lock_dir(const std::string& data_dir) {
  try {
    os::private_files::create_private_directories(data_dir);
  } catch (const cni::Error&) {
  }
  os::private_files::require_administrators_only(data_dir);
}

// The network and, where the flavor has one, the host's endpoint on it: both
// or neither (a failure removes the network again, so that the next ADD
// starts over).
NetworkView create_with_host_side(HnsAccess& access, const NetworkSpec& spec, const EndpointConfig& config,
                                  const EndpointFlavor& flavor, const cni::Logger& log) {
  log.info("creating network {} ({}) on adapter {}", spec.name, hns::network_type_name(spec.type), spec.adapter);
  NetworkView network = access.create_network(spec);
  if (network.id != spec.id) {
    log.warn(
        "HNS gave network {} the ID {}, not {}, and has no HCN to create it under that one: a later ADD "
        "will not complete its host side (docs/engine.md)",
        spec.name, network.id.str(), spec.id.str());
  }
  Rollback rollback(log);
  rollback.push("network " + network.name, [&access, id = network.id] { access.delete_network(id); });
  const auto plan = flavor.host_endpoint(config, network);
  if (plan && !plan->addresses.empty()) ensure_host_endpoint(access, network, *plan, std::nullopt, log);
  rollback.commit();
  return network;
}

NetworkView create_under_lock(HnsAccess& access, const NetworkSpec& spec, const EndpointConfig& config,
                              const EndpointFlavor& flavor, const std::string& data_dir,
                              std::chrono::milliseconds lock_limit, const cni::Logger& log) {
  make_lock_dir(data_dir);
  os::FileLock lock(network_lock_path(data_dir), lock_limit);
  // Whoever held the lock before may have created it.
  if (auto network = access.find_network(config.network)) return *network;
  try {
    return create_with_host_side(access, spec, config, flavor, log);
  } catch (const hns::HnsError& e) {
    // Someone who does not take our lock (flanneld, an operator) may have
    // been faster. HNS's code for a taken name is not certain (HCN_E_NETWORK_
    // ALREADY_EXISTS and ERROR_DUP_NAME have been seen): any refusal sends
    // us looking for the network by its name.
    if (!e.refused()) throw;
    if (auto network = access.find_network(config.network)) return *network;
    throw;
  }
}

std::vector<cni::IpAddress> addresses_of(const std::vector<cni::IpPrefix>& prefixes) {
  std::vector<cni::IpAddress> addresses;
  for (const cni::IpPrefix& prefix : prefixes) addresses.push_back(prefix.address());
  return addresses;
}

// The host's endpoint on `network`: completed when the network is the
// plugin's own and an earlier ADD died before finishing it, and in any case
// its addresses (or, while it is missing, where it belongs) kept from pods.
void settle_host_side(HnsAccess& access, NetworkView& network, const EndpointConfig& config,
                      const EndpointFlavor& flavor, const std::string& data_dir, std::chrono::milliseconds lock_limit,
                      const cni::Logger& log) {
  const auto plan = flavor.host_endpoint(config, network);
  if (!plan) return;
  std::optional<EndpointView> held = access.find_endpoint(plan->name);
  const bool name_taken_elsewhere = held && held->network != network.id;
  if (name_taken_elsewhere) {
    log.warn("endpoint {} is on network {}, not on {}; not using it as the host's endpoint", plan->name,
             held->network.str(), network.name);
    held.reset();
  }
  const bool ours = network.id == network_marker_id(network.name);
  const bool creatable = !plan->addresses.empty();
  if (ours && creatable && !name_taken_elsewhere && (!held || !access.is_host_attached(*held))) {
    make_lock_dir(data_dir);
    os::FileLock lock(network_lock_path(data_dir), lock_limit);
    held = access.find_endpoint(plan->name);  // whoever held the lock may have done it
    if (held && held->network != network.id) held.reset();
    log.info("completing the host side of network {}", network.name);
    held = ensure_host_endpoint(access, network, *plan, held, log);
  }
  network.host_addresses = addresses_of(held ? held->addresses : plan->addresses);
}

NetworkView wait_for(HnsAccess& access, const EndpointConfig& config, const EndpointFlavor& flavor,
                     const cni::Logger& log) {
  const auto deadline = std::chrono::steady_clock::now() + config.network_wait;
  log.info("network {} does not exist yet; waiting up to {} ms for it", config.network, config.network_wait.count());
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) break;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(kPollInterval, deadline - now));
    if (auto network = access.find_network(config.network)) return *network;
  }
  throw cni::Error(cni::kTryAgainLater,
                   fmt::format("network \"{}\" not found after waiting {} ms: {}", config.network,
                               config.network_wait.count(), missing_network_advice(access, config, flavor)));
}

}  // namespace

std::string missing_network_advice(const EndpointConfig& config, const EndpointFlavor& flavor) {
  std::string advice = fmt::format(
      "check that {} runs on this node and has created it, with the name the config's "
      "\"name\" gives",
      flavor.network_creator());
  if (flavor.type_to_create(config)) {
    advice += fmt::format(", or give the config \"master\" and an ipam subnet so that {} can create it",
                          flavor.plugin_name());
  }
  return advice;
}

std::string missing_network_advice(HnsAccess& access, const EndpointConfig& config, const EndpointFlavor& flavor) {
  return missing_network_advice(config, flavor) + networks_hns_has(access);
}

void require_accepted_type(const NetworkView& network, const EndpointFlavor& flavor) {
  if (flavor.accepts(network.type)) return;
  throw cni::Error(cni::kWrongNetworkType,
                   fmt::format("network \"{}\" is of type {}; {} needs {}", network.name,
                               hns::network_type_name(network.type), flavor.plugin_name(), flavor.accepted_types()));
}

std::optional<NetworkSpec> creatable_network(const EndpointConfig& config, const EndpointFlavor& flavor,
                                             const hns::HnsVersion& version) {
  const auto type = flavor.type_to_create(config);
  if (!type || !config.blueprint) return std::nullopt;
  const NetworkBlueprint& blueprint = *config.blueprint;
  NetworkSpec spec;
  spec.id = network_marker_id(config.network);
  spec.name = config.network;
  spec.type = *type;
  spec.adapter = blueprint.adapter;
  for (const cni::IpPrefix& subnet : blueprint.subnets) {
    spec.subnets.push_back({subnet, flavor.network_gateway(config, spec.type, subnet)});
  }
  spec.policies = blueprint.policies;
  NetworkShape shape = flavor.network_shape(config, spec.type, version);
  for (hns::Policy& policy : shape.policies) {
    // The config's own policy of a type wins over the flavor's.
    const bool configured = std::any_of(spec.policies.begin(), spec.policies.end(),
                                        [&](const hns::Policy& own) { return own.type() == policy.type(); });
    if (!configured) spec.policies.push_back(std::move(policy));
  }
  spec.subnet_policies = std::move(shape.subnet_policies);
  spec.non_persistent = shape.non_persistent;
  spec.dns = blueprint.dns;
  return spec;
}

NetworkView locate_network(HnsAccess& access, const EndpointConfig& config, const EndpointFlavor& flavor,
                           const std::string& data_dir, std::chrono::milliseconds lock_limit, const cni::Logger& log) {
  std::optional<NetworkView> network = access.find_network(config.network);
  if (!network) {
    const auto spec = creatable_network(config, flavor, access.version());
    network = spec ? create_under_lock(access, *spec, config, flavor, data_dir, lock_limit, log)
                   : wait_for(access, config, flavor, log);
  }
  require_accepted_type(*network, flavor);
  settle_host_side(access, *network, config, flavor, data_dir, lock_limit, log);
  return *network;
}

std::string network_lock_path(const std::string& data_dir) { return data_dir + "/network-create.lock"; }

}  // namespace wincni::engine
