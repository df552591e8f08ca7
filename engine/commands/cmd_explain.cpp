// What an ADD would do, without doing it (hnsctl explain): the API and why,
// the network found or to be created, the IPAM request, the endpoint and
// its policies with where each came from, and what would make the ADD fail.
// Only HNS queries are made: nothing is created, locked or allocated.

#include <fmt/format.h>

#include "commands/invocation.hpp"
#include "commands/network_locator.hpp"
#include "commands/required_features.hpp"
#include "plan/endpoint_plan.hpp"
#include "plan/policy_assembly.hpp"
#include "wincni/engine/engine.hpp"
#include "wincni/engine/policy_json.hpp"
#include "wincni/engine/runtime_netns.hpp"

namespace wincni::engine {

namespace {

using Json = nlohmann::ordered_json;

std::string api_name(HnsApi api) { return api == HnsApi::V2 ? "HCN (v2)" : "HNS v1"; }

std::string api_reason(const Invocation& invocation) {
  if (invocation.config.api) return "the config's apiVersion";
  if (auto from_netns = api_for_netns(invocation.ctx.netns)) {
    return *from_netns == HnsApi::V2 ? "CNI_NETNS is an HCN namespace (containerd)"
                                     : "CNI_NETNS is dockershim's (none or container:<id>)";
  }
  return "no apiVersion and no CNI_NETNS: the newer API this host's HNS has";
}

std::string role_text(const Invocation& invocation) {
  switch (invocation.role) {
    case Role::Sandbox:
      return "dockershim's pause container: it creates the pod's endpoint";
    case Role::Joiner:
      return "a dockershim container joining its pause container's endpoint: nothing is created";
    case Role::Namespace:
      break;
  }
  return "a containerd pod: the endpoint is attached to the HCN namespace in CNI_NETNS";
}

Json network_json(const NetworkView& network) {
  Json subnets = Json::array();
  for (const SubnetView& subnet : network.subnets) {
    Json entry = {{"prefix", subnet.prefix.str()}};
    if (subnet.gateway) entry["gateway"] = subnet.gateway->str();
    subnets.push_back(entry);
  }
  Json out = {{"name", network.name},
              {"found", true},
              {"id", network.id.str()},
              {"type", std::string(hns::network_type_name(network.type))},
              {"subnets", subnets}};
  if (network.provider_address) out["providerAddress"] = network.provider_address->str();
  return out;
}

// A network with the blueprint's subnets, standing in for one ADD would
// create, so that the policies can be shown.
NetworkView planned_network(const NetworkSpec& spec) {
  NetworkView network;
  network.name = spec.name;
  network.type = spec.type;
  for (const auto& subnet : spec.subnets) network.subnets.push_back({subnet.prefix, subnet.gateway, {}, {}});
  return network;
}

Json policies_json(const Invocation& invocation, const NetworkView& network, std::vector<std::string>& problems) {
  const PolicyInputs inputs =
      endpoint_policy_inputs(invocation.config, invocation.flavor, network, invocation.api, {}, true);
  Json out = Json::array();
  for (const AssembledPolicy& assembled : assemble_endpoint_policies(inputs)) {
    try {
      const auto rendered = render_policies(policies_for_api({assembled}, invocation.api), invocation.api);
      for (const auto& policy : rendered) out.push_back({{"from", assembled.origin}, {"policy", policy}});
    } catch (const cni::Error& error) {
      problems.push_back(error.msg());
    }
  }
  if (invocation.config.loopback_dsr) {
    out.push_back({{"from", "loopbackDSR"},
                   {"policy", "OutBoundNAT to the pod's own IPv4 address, added once the address is known"}});
  }
  return out;
}

Json ipam_json(const Invocation& invocation) {
  if (invocation.config.ipam_type.empty()) {
    return {{"type", nullptr}, {"by", "HNS assigns the addresses from the network's subnets"}};
  }
  return {{"type", invocation.config.ipam_type},
          {"by", fmt::format("{} is run with ADD for the pod's addresses", invocation.config.ipam_type)},
          {"request", invocation.ctx.config.ipam()}};
}

// The pod's DNS settings, and where its search list came from.
Json dns_json(const Invocation& invocation) {
  Json out = cni::encode_dns(invocation.config.dns);
  const std::string pod_namespace = invocation.pod_namespace();
  const Json& raw = invocation.ctx.config.raw();
  const Json* runtime = raw.contains("runtimeConfig") ? &raw["runtimeConfig"] : nullptr;
  if (runtime != nullptr && runtime->is_object() && runtime->contains("dns")) {
    out["why"] = "runtimeConfig.dns (the pod's dnsConfig from the runtime) replaces what it sets";
  } else if (pod_namespace.empty()) {
    out["why"] = "the config's dns; no K8S_POD_NAMESPACE in CNI_ARGS (--pod-namespace), so no namespace suffix";
  } else {
    out["why"] = fmt::format(
        "the config's dns, with the suffixes of a pod in namespace {} added where the list names the cluster's "
        "domain (podNamespaceDnsSuffix)",
        pod_namespace);
  }
  return out;
}

}  // namespace

nlohmann::ordered_json EndpointEngine::explain(const cni::CommandContext& ctx) const {
  Invocation invocation = Invocation::open(ctx, flavor_, backend_);
  std::vector<std::string> problems;
  Json report;
  report["plugin"] = std::string(flavor_.plugin_name());
  report["hns"] = {{"version", invocation.access->version().str()},
                   {"api", api_name(invocation.api)},
                   {"why", api_reason(invocation)}};
  report["role"] = role_text(invocation);
  try {
    require_config_features(invocation);
  } catch (const cni::Error& error) {
    problems.push_back(error.msg());
  }

  const std::string& name = invocation.config.network;
  std::optional<NetworkView> network = invocation.access->find_network(name);
  if (network) {
    report["network"] = network_json(*network);
    try {
      require_accepted_type(*network, flavor_);
    } catch (const cni::Error& error) {
      problems.push_back(error.msg());
    }
  } else {
    Json missing = {{"name", name}, {"found", false}};
    try {
      if (auto spec = creatable_network(invocation.config, flavor_, invocation.access->version())) {
        network = planned_network(*spec);
        missing["create"] = network_json(*network);
        missing["create"].erase("found");
        missing["create"].erase("id");
      } else {
        missing["waits"] =
            fmt::format("{} s for it to appear (networkWaitSeconds), then error 11",
                        std::chrono::duration_cast<std::chrono::seconds>(invocation.config.network_wait).count());
        problems.push_back(missing_network_advice(*invocation.access, invocation.config, flavor_));
      }
    } catch (const cni::Error& error) {
      problems.push_back(error.msg());
    }
    report["network"] = missing;
  }

  report["ipam"] = ipam_json(invocation);
  Json endpoint = {{"name", invocation.endpoint_name}};
  if (auto existing = invocation.access->find_endpoint(invocation.endpoint_name)) {
    endpoint["existing"] = fmt::format(
        "{} is there already: ADD reuses it if it is what ADD would make, else replaces "
        "it when this plugin made it and stops when someone else did",
        existing->id.str());
  }
  report["endpoint"] = endpoint;
  report["dns"] = dns_json(invocation);
  report["policies"] = network ? policies_json(invocation, *network, problems) : Json::array();
  report["warnings"] = invocation.config.warnings;
  report["problems"] = problems;
  return report;
}

}  // namespace wincni::engine
