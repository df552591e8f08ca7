// hnsctl node host-gw|vxlan: leave the node the way flanneld's Windows
// backends leave it, so that plugins find what they would find on a node.
//   host-gw (flannel pkg/backend/hostgw/hostgw_windows.go): an L2Bridge
//     network with the pod subnet and gateway .1, created through HNS v1,
//     and the host's endpoint <name>_ep at .2, attached to the host.
//   vxlan (pkg/backend/vxlan/device_windows.go): an Overlay network created
//     through HCN, VSID = VNI on its subnet, bound to the adapter, with
//     VxlanPort and HostRoute; HNS adds the DR MAC and provider address.
// Both reuse what is already right and replace what is not.

#include <fmt/format.h>

#include "command_entry_points.hpp"
#include "attached_host_endpoint.hpp"

namespace wincni::hnsctl {
namespace {

using cni::IpAddress;
using cni::IpPrefix;

struct NodeOptions {
  IpPrefix subnet;
  std::string name;
  std::string adapter;
};

IpPrefix pod_subnet(const os::ParsedOptions& parsed) {
  if (!parsed.given("subnet")) throw UsageError("--subnet is required, e.g. --subnet 10.244.1.0/24");
  std::string text = parsed.text("subnet");
  auto subnet = IpPrefix::parse(text);
  if (!subnet || !subnet->address().is_v4()) throw UsageError("--subnet \"" + text + "\" is not an IPv4 CIDR");
  if (!subnet->is_network()) {
    throw UsageError(fmt::format("--subnet {} has host bits set; the subnet is {}", text, subnet->network().str()));
  }
  if (subnet->length() > 30) throw UsageError("--subnet " + text + " is too small for a gateway and a host endpoint");
  return *subnet;
}

// No `default_name`: the command works the name out itself.
void add_common_options(os::OptionSet& options, const std::optional<std::string>& default_name, const char* name_help) {
  options.value("subnet", "the node's pod subnet (CIDR), e.g. 10.244.1.0/24")
      .value("name", name_help, default_name)
      .value("adapter", "the host adapter the network binds to", "Ethernet")
      .value("management-ip", "the adapter's address (HNS emulator only; default 192.0.2.4)");
}

// Common options; on the emulator also gives the host the adapter asked for.
NodeOptions prepare(Context& context, const os::ParsedOptions& parsed) {
  NodeOptions node{pod_subnet(parsed), parsed.value("name").value_or(""), parsed.text("adapter")};
  std::optional<IpAddress> management_ip;
  if (parsed.given("management-ip")) {
    std::string text = parsed.text("management-ip");
    management_ip = IpAddress::parse(text);
    if (!management_ip) throw UsageError("--management-ip \"" + text + "\" is not an IP address");
    if (!context.emulated) throw UsageError("--management-ip only applies to the HNS emulator");
  }
  if (context.emulated) context.emulated->set_adapter(node.adapter, management_ip);
  return node;
}

hns::HnsNetwork ensure_bridge_network(hns::HnsClient& client, const NodeOptions& node, const IpAddress& gateway) {
  auto existing = client.find_hns_network_by_name(node.name);
  if (existing && existing->type == hns::NetworkType::L2Bridge) {
    for (const auto& subnet : existing->subnets) {
      if (subnet.address_prefix == node.subnet && subnet.gateway_address == gateway) return *existing;
    }
  }
  if (existing) client.delete_hns_network(existing->id);
  hns::HnsNetwork wanted;
  wanted.name = node.name;
  wanted.type = hns::NetworkType::L2Bridge;
  wanted.network_adapter_name = node.adapter;
  wanted.subnets.push_back({node.subnet, gateway, {}});
  return client.create_hns_network(wanted);
}

hns::HostComputeNetwork overlay_network(const NodeOptions& node, std::uint32_t vni, std::uint16_t port,
                                        bool with_vxlan_port) {
  hns::HostComputeNetwork network;
  network.name = node.name;
  network.type = hns::NetworkType::Overlay;
  network.flags = hns::HostComputeNetwork::kEnableNonPersistent;
  network.policies.push_back(hns::Policy{hns::NetAdapterNamePolicy{node.adapter}});
  if (with_vxlan_port) network.policies.push_back(hns::Policy{hns::VxlanPortPolicy{port}});
  hns::Subnet subnet;
  subnet.ip_address_prefix = node.subnet;
  subnet.policies.push_back(hns::Policy{hns::VsidPolicy{vni}});
  subnet.routes.push_back(hns::Route{node.subnet.first().next(), IpPrefix(IpAddress{}, 0), 0});
  hns::Ipam ipam;
  ipam.subnets.push_back(std::move(subnet));
  network.ipams.push_back(std::move(ipam));
  return network;
}

}  // namespace

int node_host_gw(Context& context, const Args& args) {
  os::OptionSet options("hnsctl node host-gw",
                        "Set the node up as flanneld's host-gw backend does: an L2Bridge network with the pod "
                        "subnet and gateway .1, and the host endpoint <name>_ep at .2 attached to the host");
  add_common_options(options, "cbr0", "HNS network name");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  NodeOptions node = prepare(context, *parsed);
  IpAddress gateway = node.subnet.first().next();
  IpAddress host_address = gateway.next();

  hns::HnsNetwork network = ensure_bridge_network(context.client, node, gateway);
  hns::HnsEndpoint endpoint =
      ensure_attached_host_endpoint(context.client, network.id, network.name + "_ep", host_address);
  print(context.out, "network {} L2Bridge {} gateway {} management IP {} ({})\n", network.name, node.subnet.str(),
        gateway.str(), network.management_ip ? network.management_ip->str() : "-", network.id.str());
  print(context.out, "endpoint {} {} attached to the host ({})\n", endpoint.name, host_address.str(),
        endpoint.id.str());
  return kOk;
}

int node_vxlan(Context& context, const Args& args) {
  os::OptionSet options("hnsctl node vxlan",
                        "Set the node up as flanneld's vxlan backend does: an Overlay network with VSID = VNI, "
                        "VxlanPort, HostRoute, and HNS's DR MAC and provider address");
  // flanneld's own default (flannel-io/flannel pkg/backend/vxlan/vxlan_windows.go).
  add_common_options(options, std::nullopt, "HNS network name (default flannel.<VNI>, as flanneld names it)");
  options.value("vni", "VXLAN network identifier (>= 4096 on Windows)", "4096").value("port", "VXLAN UDP port", "4789");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  std::uint64_t vni = number_option(*parsed, "vni");
  std::uint64_t port = number_option(*parsed, "port");
  if (vni < hns::VsidPolicy::kMinimum || vni > hns::VsidPolicy::kMaximum) {
    throw UsageError(fmt::format("--vni {} is out of range: Windows overlay networks take VNIs from {} to {}", vni,
                                 hns::VsidPolicy::kMinimum, hns::VsidPolicy::kMaximum));
  }
  if (port == 0 || port > 65535) throw UsageError(fmt::format("--port {} is not a UDP port", port));
  NodeOptions node = prepare(context, *parsed);
  if (!parsed->given("name")) node.name = fmt::format("flannel.{}", vni);
  auto vsid = static_cast<std::uint32_t>(vni);
  auto udp_port = static_cast<std::uint16_t>(port);

  hns::HnsClient& client = context.client;
  auto network = client.find_network_by_name(node.name);
  bool reusable = network && network->type == hns::NetworkType::Overlay && !network->subnets().empty() &&
                  network->subnets().front()->ip_address_prefix == node.subnet;
  if (!reusable) {
    if (network) client.delete_network(network->id);
    network = client.create_network(overlay_network(node, vsid, udp_port, client.supports(hns::Feature::VxlanPort)));
  }
  if (!network->find_policy<hns::HostRoutePolicy>() && client.supports(hns::Feature::HostRoute)) {
    client.modify_network(network->id,
                          hns::policy_request(hns::RequestType::Add, {hns::Policy{hns::HostRoutePolicy{}}}));
  }
  const auto* router = network->find_policy<hns::DrMacAddressPolicy>();
  const auto* provider = network->find_policy<hns::ProviderAddressPolicy>();
  print(context.out, "network {} Overlay {} VNI {} port {} ({})\n", network->name, node.subnet.str(), vni, port,
        network->id.str());
  print(context.out, "DR MAC {} provider address {}\n", router ? router->address : "-",
        provider ? provider->provider_address : "-");
  return kOk;
}

}  // namespace wincni::hnsctl
