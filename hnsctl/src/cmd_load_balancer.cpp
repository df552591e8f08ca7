// hnsctl lb list|show: kube-proxy's load balancers, one per service
// frontend. Half of a Windows service outage is read from them: a frontend
// with no backend, or backends that are endpoints no longer there.

#include <fmt/format.h>

#include <cctype>
#include <set>
#include <vector>

#include "command_entry_points.hpp"
#include "table.hpp"

namespace wincni::hnsctl {
namespace {

// "TCP 80->8080", one per mapping.
std::string port_list(const hns::HostComputeLoadBalancer& lb) {
  std::vector<std::string> ports;
  for (const hns::LoadBalancerPortMapping& mapping : lb.port_mappings) {
    std::string protocol = hns::ip_protocol_name(mapping.protocol);
    for (char& c : protocol) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    ports.push_back(fmt::format("{} {}->{}", protocol, mapping.external_port, mapping.internal_port));
  }
  return ports.empty() ? "-" : hns::join_list(ports);
}

std::string flag_list(const hns::HostComputeLoadBalancer& lb) {
  std::string text;
  if (lb.flags & hns::HostComputeLoadBalancer::kDsr) text += "DSR";
  if (lb.flags & hns::HostComputeLoadBalancer::kIpv6) text += text.empty() ? "IPv6" : ",IPv6";
  return text.empty() ? "-" : text;
}

std::set<hns::Guid> endpoint_ids(hns::HnsClient& client) {
  std::set<hns::Guid> ids;
  for (const hns::HostComputeEndpoint& endpoint : client.list_endpoints()) ids.insert(endpoint.id);
  return ids;
}

}  // namespace

int load_balancer_list(Context& context, const Args& args) {
  os::OptionSet options("hnsctl lb list", "List HNS load balancers (kube-proxy's service frontends)");
  options.flag("json", "Print the HNS v2 load balancer objects as a JSON array");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  const std::vector<hns::HostComputeLoadBalancer> load_balancers = context.client.list_load_balancers();
  if (parsed->given("json")) {
    hns::Json all = hns::Json::array();
    for (const auto& lb : load_balancers) all.push_back(lb.to_json());
    print(context.out, "{}\n", all.dump(2));
    return kOk;
  }
  const std::set<hns::Guid> endpoints = endpoint_ids(context.client);
  Table table({"ID", "FRONTEND", "SOURCE VIP", "PORTS", "FLAGS", "BACKENDS"});
  for (const auto& lb : load_balancers) {
    std::size_t gone = 0;
    for (const hns::Guid& backend : lb.host_compute_endpoints) gone += endpoints.contains(backend) ? 0 : 1;
    std::string backends = std::to_string(lb.host_compute_endpoints.size());
    if (gone) backends += fmt::format(" ({} gone)", gone);
    table.add({lb.id.str(), lb.frontend_vips.empty() ? "-" : hns::join_list(lb.frontend_vips),
               lb.source_vip.empty() ? "-" : lb.source_vip, port_list(lb), flag_list(lb), backends});
  }
  table.print(context.out);
  return kOk;
}

int load_balancer_show(Context& context, const Args& args) {
  os::OptionSet options("hnsctl lb show", "Show one HNS load balancer and what its backends are");
  options.value("id", "ID").positional("id", "ID");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  const hns::Guid id = id_option(*parsed, "load balancer");
  const auto lb = context.client.find_load_balancer(id);
  if (!lb) {
    print(context.err, "hnsctl: no load balancer {}\n", id.str());
    return kFailed;
  }
  print(context.out, "{}\n", lb->to_json().dump(2));
  for (const hns::Guid& backend : lb->host_compute_endpoints) {
    const auto endpoint = context.client.find_endpoint(backend);
    if (!endpoint) {
      print(context.out, "backend {}: no such endpoint (the load balancer sends to nothing there)\n", backend.str());
      continue;
    }
    std::vector<std::string> addresses;
    for (const hns::IpConfig& config : endpoint->ip_configurations) addresses.push_back(config.ip_address.str());
    print(context.out, "backend {}: {} {}\n", backend.str(), endpoint->name,
          addresses.empty() ? "-" : hns::join_list(addresses));
  }
  return kOk;
}

}  // namespace wincni::hnsctl
