// ADD: find (or create, or wait for) the network; reuse the pod's endpoint
// if it already is what ADD would make, else replace it; allocate, create,
// attach — undoing every step already taken when a later one fails.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "endpoint_creation.hpp"
#include "host_features.hpp"
#include "invocation.hpp"
#include "ipam_calls.hpp"
#include "rollback.hpp"
#include "wincni/endpoint/endpoint_marker.hpp"
#include "wincni/endpoint/endpoint_plan.hpp"
#include "wincni/endpoint/engine.hpp"
#include "wincni/endpoint/error_codes.hpp"
#include "wincni/endpoint/network_locator.hpp"
#include "wincni/endpoint/plugin_data_dir.hpp"
#include "wincni/endpoint/result_builder.hpp"

namespace wincni::endpoint {

namespace {

// The result is encoded by the skel after the handler returns; a result the
// config's version cannot carry (0.2.0 without IPv4) must fail here, while
// the ADD can still be undone.
cni::Result checked(cni::Result result, const Invocation& invocation) {
  result.encode(invocation.ctx.config.cni_version());
  return result;
}

std::vector<PodAddress> held_addresses(const EndpointView& endpoint) {
  std::vector<PodAddress> addresses;
  for (const cni::IpPrefix& address : endpoint.addresses) {
    std::optional<cni::IpAddress> gateway;
    for (const cni::IpAddress& candidate : endpoint.gateways) {
      if (candidate.family() == address.family()) gateway = candidate;
    }
    addresses.push_back({address, gateway});
  }
  return addresses;
}

// dockershim: a container joining the pause container's endpoint.
cni::Result join_sandbox(Invocation& invocation, const NetworkView& network) {
  auto endpoint = invocation.host->find_endpoint(invocation.endpoint_name);
  if (!endpoint || endpoint->network != network.id) {
    throw cni::Error(cni::kUnknownContainer,
                     fmt::format("no endpoint \"{}\" on network \"{}\" for {} to join: the pod's sandbox has not been "
                                 "set up (its ADD with CNI_NETNS=none comes first)",
                                 invocation.endpoint_name, network.name, invocation.ctx.netns));
  }
  if (!invocation.host->is_attached(*endpoint, invocation.attachment)) {
    invocation.host->attach(*endpoint, invocation.attachment);
  }
  return checked(build_result(*endpoint, invocation.config.dns), invocation);
}

// The existing endpoint's result when it is what ADD would create and where
// this ADD wants it; nullopt when it has to be replaced.
std::optional<cni::Result> try_reuse(Invocation& invocation, const NetworkView& network, const EndpointView& endpoint,
                                     const IpamCalls& ipam) {
  const auto& log = invocation.log();
  if (endpoint.network != network.id) {
    log.info("endpoint {} is on another network; replacing it", endpoint.name);
    return std::nullopt;
  }
  if (!is_marked(endpoint.id, network.id, endpoint.name)) {
    log.info("endpoint {} was not created by {}; replacing it", endpoint.name, invocation.flavor.plugin_name());
    return std::nullopt;
  }
  if (invocation.attachment.ns && !endpoint.ns.is_null() && endpoint.ns != *invocation.attachment.ns) {
    log.info("endpoint {} is attached to namespace {}; replacing it", endpoint.name, endpoint.ns.str());
    return std::nullopt;
  }
  try {
    const bool hns_assigned = !ipam.configured();
    EndpointSpec wanted = plan_endpoint(PlanRequest{invocation.config, invocation.flavor, network, invocation.api,
                                                    endpoint.name, endpoint.id,
                                                    hns_assigned ? std::vector<PodAddress>{} : held_addresses(endpoint)});
    if (hns_assigned) {
      for (const cni::IpPrefix& address : endpoint.addresses) require_usable(address.address(), wanted, network, "HNS");
      auto late = late_policies(invocation.config, endpoint.addresses);
      wanted.policies.insert(wanted.policies.end(), late.begin(), late.end());
    }
    if (!endpoint_matches(endpoint, wanted, invocation.api)) {
      log.info("endpoint {} differs from the config; replacing it", endpoint.name);
      return std::nullopt;
    }
  } catch (const cni::Error& e) {
    log.info("endpoint {} cannot be kept: {}", endpoint.name, e.msg());
    return std::nullopt;
  }
  cni::Result result = build_result(endpoint, invocation.config.dns);
  if (ipam.configured() && !ipam.confirms(result)) return std::nullopt;
  if (!invocation.host->is_attached(endpoint, invocation.attachment)) {
    invocation.host->attach(endpoint, invocation.attachment);
  }
  log.info("reusing endpoint {}", endpoint.name);
  return checked(std::move(result), invocation);
}

void replace(Invocation& invocation, const EndpointView& endpoint, const IpamCalls& ipam) {
  for (const Attachment& attachment : invocation.host->attachments(endpoint)) {
    invocation.host->detach(endpoint, attachment);
  }
  invocation.host->delete_endpoint(endpoint.id);
  // The pod's addresses went with it; allocate them afresh.
  if (ipam.configured()) ipam.del();
}

cni::Result create_fresh(Invocation& invocation, const NetworkView& network, const IpamCalls& ipam) {
  HnsHost* host = invocation.host.get();
  const EndpointConfig& config = invocation.config;
  Rollback rollback(invocation.log());

  std::vector<PodAddress> addresses;
  if (ipam.configured()) {
    // IPAM DEL is harmless when nothing was allocated, and the delegate may
    // have allocated before it failed or timed out.
    rollback.push("IPAM allocation", [ipam] { ipam.del(); });
    const cni::Result allocated =
        ipam.add(invocation.flavor.ipam_for_add(config, network, invocation.ctx.config.ipam()));
    if (allocated.ips.empty()) {
      throw cni::Error(kUnusableAddress, fmt::format("IPAM plugin {} returned no IP address", config.ipam_type));
    }
    for (const cni::IpConfig& ip : allocated.ips) addresses.push_back({ip.address, ip.gateway});
    std::vector<cni::IpPrefix> prefixes;
    for (const PodAddress& pod : addresses) prefixes.push_back(pod.address);
    require_address_features(invocation, prefixes);
  }

  const hns::Guid id = endpoint_marker_id(network.id, invocation.endpoint_name);
  const EndpointSpec spec =
      plan_endpoint(PlanRequest{config, invocation.flavor, network, invocation.api, invocation.endpoint_name, id, addresses});
  EndpointView endpoint = create_endpoint_with_id(*host, spec, network, invocation.log());
  rollback.push("endpoint " + endpoint.name, [host, id] { host->delete_endpoint(id); });

  if (addresses.empty()) {
    for (const cni::IpPrefix& address : endpoint.addresses) require_usable(address.address(), spec, network, "HNS");
    if (auto late = late_policies(config, endpoint.addresses); !late.empty()) {
      host->add_policies(endpoint, late);
      for (const AssembledPolicy& entry : late) endpoint.policies.push_back(entry.policy);
    }
  }

  const Attachment attachment = invocation.attachment;
  rollback.push("attachment of " + endpoint.name, [host, endpoint, attachment] { host->detach(endpoint, attachment); });
  host->attach(endpoint, attachment);

  cni::Result result = checked(build_result(endpoint, config.dns), invocation);
  if (invocation.api == HnsApi::V1 && !config.dns.options.empty()) {
    invocation.log().warn("HNS v1 endpoints have no DNS options; {} not applied", fmt::join(config.dns.options, " "));
  }
  rollback.commit();
  invocation.log().info("endpoint {} ({}) created on network {}", endpoint.name, endpoint.id.str(), network.name);
  return result;
}

}  // namespace

cni::Result EndpointEngine::add(const cni::CommandContext& ctx) const {
  Invocation invocation = Invocation::open(ctx, flavor_, backend_);
  // Before anything is made: an ADD this host cannot do creates no network.
  require_config_features(invocation);
  const NetworkView network =
      locate_network(*invocation.host, invocation.config, flavor_, plugin_data_dir(invocation.env()), ctx.log());
  if (invocation.role == Role::Joiner) return join_sandbox(invocation, network);

  const IpamCalls ipam(invocation);
  if (auto existing = invocation.host->find_endpoint(invocation.endpoint_name)) {
    if (auto reused = try_reuse(invocation, network, *existing, ipam)) return *reused;
    replace(invocation, *existing, ipam);
  }
  return create_fresh(invocation, network, ipam);
}

}  // namespace wincni::endpoint
