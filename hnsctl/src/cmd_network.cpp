// hnsctl network list|show|delete

#include <fmt/format.h>

#include "command_entry_points.hpp"
#include "object_commands.hpp"
#include "table.hpp"

namespace wincni::hnsctl {
namespace {

using hns::HostComputeNetwork;

ObjectOps network_ops() {
  return ObjectOps{"network",
                   [](hns::HnsClient& client, const std::string& key) {
                     return find_by_name_or_id<HostComputeNetwork>(
                         key, [&](const hns::Guid& id) { return client.find_network(id); },
                         [&](const std::string& name) { return client.find_network_by_name(name); });
                   },
                   [](hns::HnsClient& client, const hns::Guid& id) { return client.delete_network(id); }};
}

std::string subnets_of(const HostComputeNetwork& network) {
  std::string text;
  for (const auto* subnet : network.subnets()) {
    if (!text.empty()) text += ',';
    text += subnet->ip_address_prefix.str();
  }
  return text;
}

std::string gateways_of(const HostComputeNetwork& network) {
  std::string text;
  for (const auto* subnet : network.subnets()) {
    if (auto gateway = subnet->gateway()) {
      if (!text.empty()) text += ',';
      text += gateway->str();
    }
  }
  return text;
}

}  // namespace

int network_list(Context& context, const Args& args) {
  os::OptionSet options("hnsctl network list", "List HNS networks (like Get-HnsNetwork)");
  options.flag("json", "Print the HNS v2 network objects as a JSON array")
      .flag("v1", "Print the HNS v1 objects, the ones Get-HnsNetwork shows and issue threads quote, as a JSON array");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  if (parsed->given("v1")) {
    hns::Json all = hns::Json::array();
    for (const auto& network : context.client.list_hns_networks()) all.push_back(network.to_json());
    print(context.out, "{}\n", all.dump(2));
    return kOk;
  }
  auto networks = context.client.list_networks();
  if (parsed->given("json")) {
    hns::Json all = hns::Json::array();
    for (const auto& network : networks) all.push_back(network.to_json());
    print(context.out, "{}\n", all.dump(2));
    return kOk;
  }
  Table table({"NAME", "TYPE", "SUBNETS", "GATEWAYS", "ID"});
  for (const auto& network : networks) {
    table.add({network.name, std::string(hns::network_type_name(network.type)), subnets_of(network),
               gateways_of(network), network.id.str()});
  }
  table.print(context.out);
  return kOk;
}

int network_show(Context& context, const Args& args) { return show_object(context, args, network_ops()); }
int network_delete(Context& context, const Args& args) { return delete_object(context, args, network_ops()); }

}  // namespace wincni::hnsctl
