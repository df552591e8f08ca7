#include "plan/result_builder.hpp"

#include <cctype>

#include "config/config_route.hpp"
#include "wincni/hns/mac_address.hpp"

namespace wincni::engine {

std::string cni_mac(std::string_view hns_mac) {
  auto mac = hns::MacAddress::parse(hns_mac);
  if (!mac) return std::string(hns_mac);
  std::string text = mac->str();
  for (char& c : text) c = c == '-' ? ':' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

cni::Result build_result(const EndpointView& endpoint, const PodInterface& pod, const cni::Dns& dns) {
  cni::Result result;
  // The pod's interface first: index 0 is what every address points at, and
  // containerd files a pod's IPs only under the interface it named (eth0).
  result.interfaces.push_back(cni::Interface{pod.name, cni_mac(endpoint.mac), pod.sandbox, std::nullopt, {}, {}});
  result.interfaces.push_back(cni::Interface{endpoint.name, {}, {}, std::nullopt, {}, {}});
  for (const cni::IpPrefix& address : endpoint.addresses) {
    cni::IpConfig ip;
    ip.address = address;
    for (const cni::IpAddress& gateway : endpoint.gateways) {
      if (gateway.family() == address.family()) ip.gateway = gateway;
    }
    ip.interface = 0;
    result.ips.push_back(ip);
  }
  for (const cni::IpAddress& gateway : endpoint.gateways) {
    cni::Route route;
    route.dst = default_destination(gateway.family());
    route.gw = gateway;
    result.routes.push_back(route);
  }
  for (const hns::Route& hns_route : endpoint.routes) {
    if (hns_route.is_default() || !hns_route.destination_prefix) continue;
    cni::Route route;
    route.dst = *hns_route.destination_prefix;
    route.gw = hns_route.next_hop;
    result.routes.push_back(route);
  }
  result.dns = dns;
  return result;
}

}  // namespace wincni::engine
