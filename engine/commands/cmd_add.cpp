// ADD: find (or create, or wait for) the network; reuse the pod's endpoint
// if it already is what ADD would make, else replace it; allocate, create,
// attach — undoing every step already taken when a later one fails.

#include <exception>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands/address_holders.hpp"
#include "commands/endpoint_creation.hpp"
#include "commands/endpoint_removal.hpp"
#include "commands/foreign_endpoint.hpp"
#include "commands/required_features.hpp"
#include "commands/invocation.hpp"
#include "commands/ipam_calls.hpp"
#include "commands/rollback.hpp"
#include "plan/endpoint_marker.hpp"
#include "plan/endpoint_name.hpp"
#include "plan/endpoint_plan.hpp"
#include "wincni/engine/engine.hpp"
#include "commands/network_locator.hpp"
#include "commands/plugin_data_dir.hpp"
#include "plan/result_builder.hpp"
#include "wincni/hns/hns_error.hpp"

namespace wincni::engine {

namespace {

// The result is encoded by the skel after the handler returns; a result the
// config's version cannot carry (0.2.0 without IPv4) must fail here, while
// the ADD can still be undone.
cni::Result checked(cni::Result result, const Invocation& invocation) {
  result.encode(invocation.ctx.config.cni_version());
  return result;
}

// The pod's interface as the runtime named it, in its sandbox: containerd's
// HCN namespace, or dockershim's pause container (which a joining
// container's CNI_NETNS names).
PodInterface pod_interface(const Invocation& invocation) {
  const cni::CommandContext& ctx = invocation.ctx;
  switch (invocation.role) {
    case Role::Namespace:
      return {ctx.ifname, ctx.netns};
    case Role::Sandbox:
      return {ctx.ifname, ctx.container_id};
    case Role::Joiner:
      return {ctx.ifname, ctx.netns.substr(std::string_view("container:").size())};
  }
  return {ctx.ifname, ctx.netns};
}

cni::Result pod_result(const Invocation& invocation, const EndpointView& endpoint) {
  return build_result(endpoint, pod_interface(invocation), invocation.config.dns);
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

// Attaches an endpoint this ADD did not create. A dockershim container HCS
// does not know (not started yet, or gone) is no failure here: the
// reference plugins and terway let such an ADD succeed (the reference only
// for an endpoint the ADD did not create, as here), and failing it would
// fail pods that work with them (docs/engine.md, "dockershim containers").
void attach_existing(Invocation& invocation, const EndpointView& endpoint) {
  if (invocation.access->is_attached(endpoint, invocation.attachment)) return;
  try {
    invocation.access->attach(endpoint, invocation.attachment);
  } catch (const hns::HnsError& e) {
    if (!hns::is_compute_system_missing(e.hresult())) throw;
    invocation.log().warn(
        "container {} is not running (HCS knows no compute system of that ID); endpoint {} is not "
        "attached to it",
        invocation.attachment.container, endpoint.name);
  }
}

// dockershim: a container joining the pause container's endpoint.
cni::Result join_sandbox(Invocation& invocation, const NetworkView& network) {
  auto endpoint = invocation.access->find_endpoint(invocation.endpoint_name);
  if (!endpoint || endpoint->network != network.id) {
    throw cni::Error(cni::kUnknownContainer,
                     fmt::format("no endpoint \"{}\" on network \"{}\" for {} to join: the pod's sandbox has not been "
                                 "set up (its ADD with CNI_NETNS=none comes first)",
                                 invocation.endpoint_name, network.name, invocation.ctx.netns));
  }
  attach_existing(invocation, *endpoint);
  return checked(pod_result(invocation, *endpoint), invocation);
}

// The existing endpoint's result when it is what ADD would create and where
// this ADD wants it; nullopt when it has to be replaced.
std::optional<cni::Result> try_reuse(Invocation& invocation, const NetworkView& network, const EndpointView& endpoint,
                                     const IpamCalls& ipam) {
  const auto& log = invocation.log();
  if (endpoint.network != network.id) {
    log.repair("endpoint {} is on another network; replacing it", endpoint.name);
    return std::nullopt;
  }
  if (invocation.attachment.ns && !endpoint.ns.is_null() && endpoint.ns != *invocation.attachment.ns) {
    log.repair("endpoint {} is attached to namespace {}; replacing it", endpoint.name, endpoint.ns.str());
    return std::nullopt;
  }
  try {
    const bool hns_assigned = !ipam.configured();
    EndpointSpec wanted =
        plan_endpoint(PlanRequest{invocation.config, invocation.flavor, network, invocation.api, endpoint.name,
                                  endpoint.id, hns_assigned ? std::vector<PodAddress>{} : held_addresses(endpoint)});
    if (hns_assigned) {
      for (const cni::IpPrefix& address : endpoint.addresses)
        require_usable(address.address(), wanted, network, invocation.flavor, "HNS");
      auto late = late_policies(invocation.config, endpoint.addresses, invocation.api);
      wanted.policies.insert(wanted.policies.end(), late.begin(), late.end());
    }
    if (!endpoint_matches(endpoint, wanted, invocation.api)) {
      log.repair("endpoint {} differs from the config; replacing it", endpoint.name);
      return std::nullopt;
    }
  } catch (const cni::Error& e) {
    log.info("endpoint {} cannot be kept: {}", endpoint.name, e.msg());
    return std::nullopt;
  }
  cni::Result result = pod_result(invocation, endpoint);
  if (ipam.configured() && !ipam.confirms(result)) return std::nullopt;
  attach_existing(invocation, endpoint);
  log.info("reusing endpoint {}", endpoint.name);
  return checked(std::move(result), invocation);
}

void replace(Invocation& invocation, const EndpointView& endpoint, const IpamCalls& ipam) {
  remove_endpoint(*invocation.access, endpoint);
  // The pod's addresses went with it; allocate them afresh.
  if (ipam.configured()) ipam.del();
}

// At most this many live pods' addresses are given back in one ADD before it
// gives up: each costs IPAM two calls, and a store that lost more than a
// few live pods wants an operator (hnsctl doctor).
constexpr int kMaxGiveBacks = 16;

// What the pod's endpoint met when HNS refused it: nothing of ours in the way
// (the failure stands), dead endpoints of ours (removed; the create is tried
// again), or live pods whose addresses IPAM gave out again (given back to
// them; the pod needs a fresh allocation).
enum class Obstacle { None, Removed, GivenBack };

// `ipam_config` is the "ipam" object the pod's allocation went out with.
Obstacle clear_address_holders(Invocation& invocation, const EndpointSpec& spec, const NetworkView& network,
                               const IpamCalls& ipam, const nlohmann::json& ipam_config) {
  std::vector<AddressHolder> holders;
  try {
    holders = address_holders(*invocation.access, spec, network);
  } catch (const std::exception& e) {
    invocation.log().warn("could not look for what holds the pod's address: {}", e.what());
  }
  if (holders.empty()) return Obstacle::None;
  const HolderVerdict verdict = judge_holders(invocation, std::move(holders));
  for (const AddressHolder& dead : verdict.dead) {
    invocation.log().repair(
        "endpoint {} holds {}, which IPAM has given this pod, and serves no sandbox HNS still has: "
        "removing it",
        dead.endpoint.name, dead.address.str());
    remove_endpoint(*invocation.access, dead.endpoint);
  }
  if (verdict.live.empty()) return verdict.dead.empty() ? Obstacle::None : Obstacle::Removed;
  // This pod's allocation goes first, so that the store can take each
  // address for its holder.
  ipam.del();
  for (const AddressHolder& live : verdict.live) {
    const auto holder = sandbox_of(live.endpoint.name, network.name);
    if (!holder) {
      throw cni::Error(cni::kEndpointInTheWay,
                       fmt::format("endpoint \"{}\" holds {}, which IPAM has just given this pod, and serves a live "
                                   "sandbox whose ID its name does not give: IPAM's store does not know the address is "
                                   "in use (run hnsctl doctor)",
                                   live.endpoint.name, live.address.str()));
    }
    invocation.log().repair(
        "IPAM gave {} to this pod, but endpoint {} of a live sandbox holds it (IPAM's store lost "
        "it): giving it back to {} and asking IPAM again",
        live.address.str(), live.endpoint.name, *holder);
    std::vector<cni::IpAddress> held;
    for (const cni::IpPrefix& address : live.endpoint.addresses) held.push_back(address.address());
    try {
      ipam.give_back(*holder, held, ipam_config);
    } catch (const cni::Error& e) {
      throw cni::Error(cni::kTryAgainLater,
                       fmt::format("IPAM gave {} to this pod, but endpoint \"{}\" of the live sandbox {} holds it, and "
                                   "IPAM would not take it back for that sandbox: {} (run hnsctl doctor)",
                                   live.address.str(), live.endpoint.name, *holder, e.msg()));
    }
  }
  return Obstacle::GivenBack;
}

// The pod's addresses from IPAM, asked with `ipam_config` as the config's
// "ipam" object; none when HNS assigns them.
std::vector<PodAddress> allocate(Invocation& invocation, const IpamCalls& ipam, const nlohmann::json& ipam_config,
                                 cni::EarlyAdd* early_ipam) {
  std::vector<PodAddress> addresses;
  if (!ipam.configured()) return addresses;
  const cni::Result allocated = ipam.add(ipam_config, early_ipam);
  if (allocated.ips.empty()) {
    throw cni::Error(cni::kUnusableAddress,
                     fmt::format("IPAM plugin {} returned no IP address", invocation.config.ipam_type));
  }
  for (const cni::IpConfig& ip : allocated.ips) addresses.push_back({ip.address, ip.gateway});
  std::vector<cni::IpPrefix> prefixes;
  for (const PodAddress& pod : addresses) prefixes.push_back(pod.address);
  require_address_features(invocation, prefixes);
  return addresses;
}

struct CreatedEndpoint {
  EndpointSpec spec;
  EndpointView endpoint;
};

// Allocates the pod's addresses and creates its endpoint with them. A create
// HNS refuses may have met an endpoint holding an address IPAM has just
// given: what is in the way is cleared (clear_address_holders) and the
// create tried again, with a fresh allocation when a live pod's address was
// given back. Looking only after a failure keeps the common ADD at one HNS
// call; HNS that accepts a second endpoint with an address in use
// (docs/engine.md) never gets here.
CreatedEndpoint allocate_and_create(Invocation& invocation, const NetworkView& network, const IpamCalls& ipam,
                                    cni::EarlyAdd* early_ipam) {
  HnsAccess& access = *invocation.access;
  const hns::Guid id = endpoint_marker_id(network.id, invocation.endpoint_name);
  const nlohmann::json ipam_config =
      ipam.configured() ? invocation.flavor.ipam_for_add(invocation.config, network, invocation.ctx.config.ipam())
                        : nlohmann::json();
  for (int given_back = 0;; ++given_back) {
    const std::vector<PodAddress> addresses =
        allocate(invocation, ipam, ipam_config, given_back == 0 ? early_ipam : nullptr);
    EndpointSpec spec = plan_endpoint(PlanRequest{invocation.config, invocation.flavor, network, invocation.api,
                                                  invocation.endpoint_name, id, addresses});
    try {
      EndpointView endpoint = create_endpoint_with_id(access, spec, network, invocation.log());
      return {std::move(spec), std::move(endpoint)};
    } catch (const std::exception&) {
      if (spec.addresses.empty()) throw;
      const std::exception_ptr failure = std::current_exception();
      switch (clear_address_holders(invocation, spec, network, ipam, ipam_config)) {
        case Obstacle::None:
          std::rethrow_exception(failure);
        case Obstacle::Removed: {
          EndpointView endpoint = create_endpoint_with_id(access, spec, network, invocation.log());
          return {std::move(spec), std::move(endpoint)};
        }
        case Obstacle::GivenBack:
          if (given_back + 1 >= kMaxGiveBacks) {
            throw cni::Error(cni::kTryAgainLater,
                             fmt::format("IPAM gave this pod {} addresses in a row that live pods hold: its store has "
                                         "lost them (run hnsctl doctor)",
                                         kMaxGiveBacks));
          }
          break;
      }
    }
  }
}

cni::Result create_fresh(Invocation& invocation, const NetworkView& network, const IpamCalls& ipam,
                         cni::EarlyAdd* early_ipam) {
  HnsAccess* access = invocation.access.get();
  const EndpointConfig& config = invocation.config;
  Rollback rollback(invocation.log());
  // IPAM DEL is harmless when nothing was allocated, and the delegate may
  // have allocated before it failed or timed out.
  if (ipam.configured()) rollback.push("IPAM allocation", [ipam] { ipam.del(); });
  // Named members, not a structured binding: clang 14 cannot capture those.
  CreatedEndpoint created = allocate_and_create(invocation, network, ipam, early_ipam);
  const EndpointSpec& spec = created.spec;
  EndpointView& endpoint = created.endpoint;
  const hns::Guid id = endpoint.id;
  rollback.push("endpoint " + endpoint.name, [access, id] { access->delete_endpoint(id); });

  if (!ipam.configured()) {
    require_address_features(invocation, endpoint.addresses);
    for (const cni::IpPrefix& address : endpoint.addresses)
      require_usable(address.address(), spec, network, invocation.flavor, "HNS");
    if (auto late = late_policies(config, endpoint.addresses, invocation.api); !late.empty()) {
      access->add_policies(endpoint, late);
      endpoint.policies.insert(endpoint.policies.end(), late.begin(), late.end());
    }
  }

  const Attachment attachment = invocation.attachment;
  rollback.push("attachment of " + endpoint.name,
                [access, endpoint, attachment] { access->detach(endpoint, attachment); });
  access->attach(endpoint, attachment);

  cni::Result result = checked(pod_result(invocation, endpoint), invocation);
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
  // IPAM's process starts while the network is looked up; it waits for its
  // config, and an ADD that does not come to allocate ends it unfed.
  const IpamCalls ipam(invocation);
  std::optional<cni::EarlyAdd> early_ipam;
  if (invocation.role != Role::Joiner && ipam.configured()) ipam.start_add(early_ipam);
  const NetworkView network =
      locate_network(*invocation.access, invocation.config, flavor_, plugin_data_dir(invocation.env()),
                     network_lock_limit(invocation.env()), ctx.log());
  if (invocation.role == Role::Joiner) return join_sandbox(invocation, network);

  if (auto existing = invocation.access->find_endpoint(invocation.endpoint_name)) {
    early_ipam.reset();  // reusing or replacing it asks IPAM on its own
    if (!is_marked(existing->id, existing->network, existing->name)) {
      throw endpoint_in_the_way(*invocation.access, *existing, "the name " + existing->name, flavor_.plugin_name());
    }
    if (auto reused = try_reuse(invocation, network, *existing, ipam)) return *reused;
    replace(invocation, *existing, ipam);
  }
  return create_fresh(invocation, network, ipam, early_ipam ? &*early_ipam : nullptr);
}

}  // namespace wincni::engine
