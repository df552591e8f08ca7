// HnsAccess over HCN (computenetwork.dll): containerd nodes, CNI "apiVersion": 2.

#include "hns/access_parts.hpp"

namespace wincni::engine {

namespace {

NetworkView network_view(const hns::HostComputeNetwork& network) {
  NetworkView view;
  view.id = network.id;
  view.name = network.name;
  view.type = network.type;
  view.policies = network.policies;
  view.provider_address = provider_address_policy(network.policies);
  for (const hns::Subnet* subnet : network.subnets()) {
    view.subnets.push_back(subnet_view(subnet->ip_address_prefix, subnet->gateway(),
                                       (subnet->flags & hns::Subnet::kDoNotReserveGatewayAddress) != 0,
                                       subnet->policies));
  }
  return view;
}

class HcnAccess final : public ClientAccess {
 public:
  using ClientAccess::ClientAccess;

  HnsApi api() const override { return HnsApi::V2; }

  std::optional<NetworkView> find_network(const std::string& name) override {
    auto network = client_->find_network_by_name(name);
    if (!network) return std::nullopt;
    return with_management_address(network_view(*network));
  }

  NetworkView create_network(const NetworkSpec& spec) override {
    return with_management_address(network_view(client_->create_network(hcn_network_settings(spec))));
  }

  bool delete_network(const hns::Guid& id) override { return client_->delete_network(id); }

  std::optional<EndpointView> find_endpoint(const std::string& name) override {
    auto endpoint = client_->find_endpoint_by_name(name);
    if (!endpoint) return std::nullopt;
    return endpoint_view(*endpoint, nullptr);
  }

  std::vector<EndpointView> endpoints_of(const NetworkView& network) override {
    std::vector<EndpointView> views;
    for (const auto& endpoint : client_->list_endpoints_of_network(network.id)) {
      views.push_back(endpoint_view(endpoint, &network));
    }
    return views;
  }

  EndpointView create_endpoint(const EndpointSpec& spec, const NetworkView& network) override {
    return endpoint_view(client_->create_endpoint(hcn_endpoint_settings(spec)), &network);
  }

  bool delete_endpoint(const hns::Guid& id) override { return client_->delete_endpoint(id); }

  void add_policies(const EndpointView& endpoint, const std::vector<hns::Policy>& policies) override {
    client_->modify_endpoint(endpoint.id, hns::policy_request(hns::RequestType::Add, policies));
  }

  bool is_attached(const EndpointView& endpoint, const Attachment& to) const override {
    return to.ns && endpoint.ns == *to.ns;
  }
  void attach(const EndpointView& endpoint, const Attachment& to) override {
    client_->attach_to_namespace(to.ns.value(), endpoint.id);
  }
  bool detach(const EndpointView& endpoint, const Attachment& from) override {
    return from.ns && client_->detach_from_namespace(*from.ns, endpoint.id);
  }
  std::vector<Attachment> attachments(const EndpointView& endpoint) const override {
    if (endpoint.ns.is_null()) return {};
    return {Attachment{endpoint.ns, {}}};
  }

 private:
  // HCN shows no management address; HNS v1's view of the same network
  // does (ManagementIP), which is where the reference win-overlay reads it.
  NetworkView with_management_address(NetworkView view) {
    if (!view.provider_address && view.type == hns::NetworkType::Overlay) {
      if (auto v1 = client_->get_hns_network(view.id)) view.provider_address = v1->management_ip;
    }
    return view;
  }

  EndpointView endpoint_view(const hns::HostComputeEndpoint& endpoint, const NetworkView* network) {
    std::optional<NetworkView> looked_up;
    const bool lengths_missing = std::any_of(endpoint.ip_configurations.begin(), endpoint.ip_configurations.end(),
                                             [](const hns::IpConfig& config) { return config.prefix_length == 0; });
    if (network == nullptr && lengths_missing) {
      if (auto found = client_->find_network(endpoint.host_compute_network)) looked_up = network_view(*found);
      network = looked_up ? &*looked_up : nullptr;
    }
    EndpointView view;
    view.id = endpoint.id;
    view.name = endpoint.name;
    view.network = endpoint.host_compute_network;
    for (const hns::IpConfig& config : endpoint.ip_configurations) {
      view.addresses.push_back(with_prefix_length(config.ip_address, config.prefix_length, network));
    }
    for (const hns::Route& r : endpoint.routes) {
      if (r.is_default() && r.next_hop) view.gateways.push_back(*r.next_hop);
    }
    view.routes = endpoint.routes;
    view.mac = endpoint.mac_address;
    view.policies = endpoint.policies;
    view.dns = to_cni_dns(endpoint.dns);
    view.ns = endpoint.host_compute_namespace;
    return view;
  }
};

}  // namespace

std::unique_ptr<HnsAccess> make_v2_access(std::shared_ptr<hns::HnsClient> client) {
  return std::make_unique<HcnAccess>(std::move(client));
}

}  // namespace wincni::engine
