// hnsctl endpoint list|show|delete

#include <map>

#include <fmt/format.h>

#include "command_entry_points.hpp"
#include "object_commands.hpp"
#include "table.hpp"

namespace wincni::hnsctl {
namespace {

using hns::HostComputeEndpoint;

ObjectOps endpoint_ops() {
  return ObjectOps{"endpoint",
                   [](hns::HnsClient& client, const std::string& key) {
                     return find_by_name_or_id<HostComputeEndpoint>(
                         key, [&](const hns::Guid& id) { return client.find_endpoint(id); },
                         [&](const std::string& name) { return client.find_endpoint_by_name(name); });
                   },
                   [](hns::HnsClient& client, const hns::Guid& id) { return client.delete_endpoint(id); }};
}

std::string addresses_of(const HostComputeEndpoint& endpoint) {
  std::string text;
  for (const auto& config : endpoint.ip_configurations) {
    if (!text.empty()) text += ',';
    text += config.ip_address.str();
  }
  return text;
}

}  // namespace

int endpoint_list(Context& context, const Args& args) {
  os::OptionSet options("hnsctl endpoint list", "List HNS endpoints (like Get-HnsEndpoint)");
  options.flag("json", "Print the HNS v2 endpoint objects as a JSON array")
      .flag("v1", "Print the HNS v1 objects, the ones Get-HnsEndpoint shows and issue threads quote, as a JSON array");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  if (parsed->given("v1")) {
    hns::Json all = hns::Json::array();
    for (const auto& endpoint : context.client.list_hns_endpoints()) all.push_back(endpoint.to_json());
    print(context.out, "{}\n", all.dump(2));
    return kOk;
  }
  auto endpoints = context.client.list_endpoints();
  if (parsed->given("json")) {
    hns::Json all = hns::Json::array();
    for (const auto& endpoint : endpoints) {
      hns::Json item = endpoint.to_json();
      item["HostComputeNamespace"] = endpoint.host_compute_namespace.str();
      all.push_back(std::move(item));
    }
    print(context.out, "{}\n", all.dump(2));
    return kOk;
  }
  std::map<hns::Guid, std::string> network_names;
  for (const auto& network : context.client.list_networks()) network_names[network.id] = network.name;
  Table table({"NAME", "NETWORK", "IP", "MAC", "NAMESPACE", "ID"});
  for (const auto& endpoint : endpoints) {
    auto network = network_names.find(endpoint.host_compute_network);
    table.add({endpoint.name, network == network_names.end() ? endpoint.host_compute_network.str() : network->second,
               addresses_of(endpoint), endpoint.mac_address,
               endpoint.host_compute_namespace.is_null() ? "-" : endpoint.host_compute_namespace.str(),
               endpoint.id.str()});
  }
  table.print(context.out);
  return kOk;
}

int endpoint_show(Context& context, const Args& args) { return show_object(context, args, endpoint_ops()); }
int endpoint_delete(Context& context, const Args& args) { return delete_object(context, args, endpoint_ops()); }

}  // namespace wincni::hnsctl
