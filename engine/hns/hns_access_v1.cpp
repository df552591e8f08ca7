// HnsAccess over HNS v1 (vmcompute.dll HNSCall): dockershim nodes, CNI
// "apiVersion" 1 or absent.

#include <algorithm>
#include <exception>

#include <fmt/format.h>

#include "hns/access_parts.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/hns_error.hpp"

namespace wincni::engine {

namespace {

NetworkView network_view(const hns::HnsNetwork& network) {
  NetworkView view;
  view.id = network.id;
  view.name = network.name;
  view.type = network.type;
  view.policies = network.policies;
  view.provider_address = provider_address_policy(network.policies);
  if (!view.provider_address) view.provider_address = network.management_ip;
  for (const hns::HnsSubnet& subnet : network.subnets) {
    if (subnet.address_prefix) {
      view.subnets.push_back(subnet_view(*subnet.address_prefix, subnet.gateway_address, false, subnet.policies));
    }
  }
  return view;
}

EndpointView endpoint_view(const hns::HnsEndpoint& endpoint, const NetworkView* network) {
  EndpointView view;
  view.id = endpoint.id;
  view.name = endpoint.name;
  view.network = endpoint.virtual_network;
  if (endpoint.ip_address)
    view.addresses.push_back(with_prefix_length(*endpoint.ip_address, endpoint.prefix_length, network));
  if (endpoint.ipv6_address) {
    view.addresses.push_back(with_prefix_length(*endpoint.ipv6_address, endpoint.ipv6_prefix_length, network));
  }
  if (endpoint.gateway_address) view.gateways.push_back(*endpoint.gateway_address);
  if (endpoint.gateway_address_v6) view.gateways.push_back(*endpoint.gateway_address_v6);
  view.mac = endpoint.mac_address;
  view.policies = endpoint.policies;
  view.dns.nameservers = hns::split_list(endpoint.dns_server_list);
  view.dns.search = hns::split_list(endpoint.dns_suffix);
  view.dns.domain = endpoint.dns_domain;
  view.ns = endpoint.namespace_id;
  view.containers = endpoint.shared_containers;
  return view;
}

class HnsV1Access final : public ClientAccess {
 public:
  using ClientAccess::ClientAccess;

  HnsApi api() const override { return HnsApi::V1; }

  std::optional<NetworkView> find_network(const std::string& name) override {
    auto network = client_->find_hns_network_by_name(name);
    if (!network) return std::nullopt;
    return network_view(*network);
  }

  NetworkView create_network(const NetworkSpec& spec) override {
    if (spec.non_persistent && client_->supports(hns::Feature::ApiV2)) return network_through_hcn(spec);
    hns::HnsNetwork settings;
    settings.id = spec.id;
    settings.name = spec.name;
    settings.type = spec.type;
    settings.network_adapter_name = spec.adapter;
    settings.policies = spec.policies;
    for (const NetworkSpec::Subnet& subnet : spec.subnets) {
      settings.subnets.push_back(hns::HnsSubnet{subnet.prefix, subnet.gateway, spec.subnet_policies});
    }
    settings.dns_suffix = hns::join_list(spec.dns.search);
    settings.dns_server_list = hns::join_list(spec.dns.nameservers);
    const hns::HnsNetwork created = client_->create_hns_network(settings);
    if (!must_remake(spec.id, created.id)) return network_view(created);
    remove_made_by_v1([&] { return client_->delete_hns_network(created.id); });
    return network_through_hcn(spec);
  }

  bool delete_network(const hns::Guid& id) override { return client_->delete_hns_network(id); }

  std::optional<EndpointView> find_endpoint(const std::string& name) override {
    auto endpoint = client_->find_hns_endpoint_by_name(name);
    if (!endpoint) return std::nullopt;
    return endpoint_view(*endpoint, nullptr);
  }

  std::vector<EndpointView> endpoints_of(const NetworkView& network) override {
    std::vector<EndpointView> views;
    for (const auto& endpoint : client_->list_hns_endpoints()) {
      if (endpoint.virtual_network == network.id) views.push_back(endpoint_view(endpoint, &network));
    }
    return views;
  }

  EndpointView create_endpoint(const EndpointSpec& spec, const NetworkView& network) override {
    hns::HnsEndpoint settings;
    settings.id = spec.id;
    settings.name = spec.name;
    settings.virtual_network = spec.network;
    settings.virtual_network_name = network.name;
    settings.policies = spec.policies;
    for (const cni::IpPrefix& address : spec.addresses) {
      const auto length = static_cast<std::uint8_t>(address.length());
      if (address.address().is_v4()) {
        settings.ip_address = address.address();
        settings.prefix_length = length;
      } else {
        settings.ipv6_address = address.address();
        settings.ipv6_prefix_length = length;
      }
    }
    for (const cni::IpAddress& gateway : spec.gateways) {
      (gateway.is_v4() ? settings.gateway_address : settings.gateway_address_v6) = gateway;
    }
    settings.dns_server_list = hns::join_list(spec.dns.nameservers);
    settings.dns_suffix = hns::join_list(spec.dns.search);
    settings.dns_domain = spec.dns.domain;
    settings.mac_address = spec.mac;
    const hns::HnsEndpoint created = client_->create_hns_endpoint(settings);
    if (!must_remake(spec.id, created.id)) return endpoint_view(created, &network);
    remove_made_by_v1([&] { return client_->delete_hns_endpoint(created.id); });
    const hns::Guid id = client_->create_endpoint(hcn_endpoint_settings(spec)).id;
    return read_after_hcn_create<EndpointView>("endpoint", spec.name, id, hns::hr::kEndpointNotFound, [&] {
      auto remade = client_->get_hns_endpoint(id);
      return remade ? std::optional(endpoint_view(*remade, &network)) : std::nullopt;
    });
  }

  bool delete_endpoint(const hns::Guid& id) override { return client_->delete_hns_endpoint(id); }

  void add_policies(const EndpointView& endpoint, const std::vector<hns::Policy>& policies) override {
    // v1 updates an endpoint by posting it whole.
    auto current = client_->get_hns_endpoint(endpoint.id);
    if (!current) {
      throw hns::HnsError(hns::hr::kEndpointNotFound, "HNSCall GET /endpoints/" + endpoint.id.str(),
                          fmt::format("endpoint \"{}\"", endpoint.name), {});
    }
    current->policies.insert(current->policies.end(), policies.begin(), policies.end());
    client_->update_hns_endpoint(*current);
  }

  bool is_attached(const EndpointView& endpoint, const Attachment& to) const override {
    return std::any_of(endpoint.containers.begin(), endpoint.containers.end(),
                       [&](const std::string& container) { return cni::equals_ignore_case(container, to.container); });
  }
  // Through HCS, as the reference plugins do (docs/engine.md, "dockershim
  // containers"): the endpoint's vNIC is hot-added to the running container,
  // and HNS then lists the container among the endpoint's SharedContainers.
  void attach(const EndpointView& endpoint, const Attachment& to) override {
    client_->hot_attach(to.container, endpoint.id);
  }
  // HCS first; what HNS still lists after that (a container attached
  // through HNS's own /attach, by older software or an older wincni, or one
  // HCS no longer knows) is detached through HNS.
  bool detach(const EndpointView& endpoint, const Attachment& from) override {
    if (client_->hot_detach(from.container, endpoint.id)) return true;
    auto current = client_->get_hns_endpoint(endpoint.id);
    if (!current || !is_attached(endpoint_view(*current, nullptr), from)) return false;
    try {
      return client_->detach_container(endpoint.id, from.container);
    } catch (const hns::HnsError&) {
      // What HNS answers to detaching a container that is not attached is
      // not public (the emulator: HCN_E_ENDPOINT_NOT_ATTACHED); the
      // endpoint's own list tells whether the container is still there.
      const std::exception_ptr detach_failure = std::current_exception();
      try {
        current = client_->get_hns_endpoint(endpoint.id);
      } catch (const hns::HnsError&) {
        std::rethrow_exception(detach_failure);  // the detach's failure is the one to report
      }
      if (!current || !is_attached(endpoint_view(*current, nullptr), from)) return false;
      std::rethrow_exception(detach_failure);
    }
  }
  std::vector<Attachment> attachments(const EndpointView& endpoint) const override {
    std::vector<Attachment> all;
    for (const std::string& container : endpoint.containers) all.push_back(Attachment{std::nullopt, container});
    return all;
  }

 private:
  // Whether HNS v1 gave an object an ID of its own rather than the one the
  // engine posted. No public source shows v1 keeping a posted ID
  // (docs/reference/emulator-fidelity.md), and that ID is the engine's only
  // proof that an object is its own (plan/endpoint_marker.hpp), so such an
  // object is made again through HCN, whose create keeps the ID it is given.
  // The one HNS just made is this call's to remove: HNS's answer named it.
  // A host without HCN (before Windows Server 2019) keeps HNS's ID
  // (docs/engine.md, GC).
  bool must_remake(const hns::Guid& chosen, const hns::Guid& given) {
    return !chosen.is_null() && given != chosen && client_->supports(hns::Feature::ApiV2);
  }

  // Removes what v1 made under its own ID before it is made again. The
  // engine's rollback knows only the ID it chose, so should the delete fail,
  // it is tried once more here before the failure goes up (after a lost
  // answer, that one finds it gone).
  template <class Delete>
  static void remove_made_by_v1(const Delete& remove) {
    try {
      remove();
    } catch (const std::exception&) {
      try {
        remove();
      } catch (const std::exception&) {
      }
      throw;
    }
  }

  NetworkView network_through_hcn(const NetworkSpec& spec) {
    const hns::Guid id = client_->create_network(hcn_network_settings(spec)).id;
    return read_after_hcn_create<NetworkView>("network", spec.name, id, hns::hr::kNetworkNotFound, [&] {
      auto created = client_->get_hns_network(id);
      return created ? std::optional(network_view(*created)) : std::nullopt;
    });
  }

  // v1's view of what HCN has just created. HCN did create it, so no failure
  // here is a refusal: the caller's rollback removes the object.
  template <class View, class Read>
  static View read_after_hcn_create(const char* kind, const std::string& name, const hns::Guid& id,
                                    hns::HResult not_found, const Read& read) {
    const std::string operation = fmt::format("HNSCall GET /{}s/{}", kind, id.str());
    const std::string object = fmt::format("{} \"{}\"", kind, name);
    try {
      if (auto view = read()) return *view;
    } catch (const hns::HnsError& e) {
      throw hns::HnsError::after_work(e.hresult(), operation, object, e.msg());
    }
    throw hns::HnsError::after_work(not_found, operation, object, "created through HCN, missing from HNS v1's view");
  }
};

}  // namespace

std::unique_ptr<HnsAccess> make_v1_access(std::shared_ptr<hns::HnsClient> client) {
  return std::make_unique<HnsV1Access>(std::move(client));
}

}  // namespace wincni::engine
