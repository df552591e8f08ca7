// hnsctl source-vip NETWORK: the address kube-proxy needs on an overlay
// node (its --source-vip), reserved where no pod will ever get it. The
// distributions script this with host-local run by hand and get it wrong in
// known ways (kubernetes/kubernetes#100962: reserved under another network
// name than the pods', so a pod gets the same address; a stale cache after
// the node's subnet changed). Here the reservation is made in the pods' own
// host-local store, under host-local's lock, idempotently; it moves when the
// network's subnet changed; host-local's GC never frees it.

#include <fmt/format.h>

#include "command_entry_points.hpp"
#include "attached_host_endpoint.hpp"
#include "pods_data_dir.hpp"
#include "wincni/hostlocal/standing_reservation.hpp"

namespace wincni::hnsctl {

int source_vip_reserve(Context& context, const Args& args) {
  os::OptionSet options("hnsctl source-vip",
                        "Reserve kube-proxy's source VIP on overlay network NETWORK in the pods' host-local store "
                        "(container kube-proxy, interface source-vip) and print it, as kube-proxy's --source-vip "
                        "takes it. Idempotent; moves the reservation when the network's subnet changed.");
  options.value("network", "the pods' HNS network (e.g. flannel.4096)")
      .value("data-dir",
             "host-local's data directory (default: the ipam.dataDir of the config in --conf-dir that names "
             "NETWORK, else host-local's default)",
             "")
      .value("conf-dir", "the runtime's CNI config folder, where the pods' config is", kDefaultConfDir)
      .flag("endpoint", "also create the endpoint <NETWORK>_source_vip holding it, attached to the host")
      .positional("network", "NETWORK");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  if (!parsed->given("network")) throw UsageError("NETWORK is required, e.g. hnsctl source-vip flannel.4096");
  const std::string name = parsed->text("network");

  auto network = context.client.find_network_by_name(name);
  if (!network) throw std::runtime_error(fmt::format("no network \"{}\": the pods' network must exist first", name));
  const hns::Subnet* pods = nullptr;
  for (const hns::Subnet* subnet : network->subnets()) {
    if (subnet->ip_address_prefix.address().is_v4()) {
      pods = subnet;
      break;
    }
  }
  if (pods == nullptr) throw std::runtime_error(fmt::format("network \"{}\" has no IPv4 subnet", name));

  const std::string endpoint_name = name + "_source_vip";
  std::string data_dir = parsed->text("data-dir");
  if (!parsed->given("data-dir")) {
    // The pods' own store, as their config names it: a reservation in any
    // other store is no reservation (kubernetes/kubernetes#100962).
    if (const auto pods_store = pods_data_dir(parsed->text("conf-dir"), name);
        pods_store && !pods_store->data_dir.empty()) {
      data_dir = pods_store->data_dir;
      print(context.err, "the pods' ipam.dataDir, from {}: {}\n", pods_store->config, data_dir);
    }
  }
  const auto held =
      hostlocal::hold_standing_address(data_dir, name, pods->ip_address_prefix, hostlocal::source_vip_owner());
  // A fresh reservation is trusted only as far as HNS agrees: a store that
  // does not know the pods' addresses (a wrong --data-dir, a wiped store)
  // would hand kube-proxy a running pod's (kubernetes/kubernetes#100962).
  // One already held is kube-proxy's, and so is the endpoint kube-proxy
  // makes for it when none is given (newSourceVIP).
  const auto holders =
      held.fresh ? context.client.list_endpoints_of_network(network->id) : std::vector<hns::HostComputeEndpoint>{};
  for (const hns::HostComputeEndpoint& endpoint : holders) {
    if (endpoint.name == endpoint_name) continue;
    for (const auto& configuration : endpoint.ip_configurations) {
      if (configuration.ip_address != held.address) continue;
      hostlocal::release_standing_address(data_dir, name, hostlocal::source_vip_owner(), held.address);
      throw std::runtime_error(fmt::format(
          "host-local's store gave kube-proxy {}, but endpoint \"{}\" ({}) holds it: that store does not know the "
          "pods' addresses (is {} the pods' ipam.dataDir?); the new reservation was released{}",
          held.address.str(), endpoint.name, endpoint.id.str(), data_dir.empty() ? "host-local's default" : data_dir,
          held.moved_from ? fmt::format(", and the old one, {}, had left the network's subnet", held.moved_from->str())
                          : std::string()));
    }
  }
  if (held.moved_from) {
    print(context.err, "moved the reservation from {} to {}: the network's subnet is now {}\n", held.moved_from->str(),
          held.address.str(), pods->ip_address_prefix.str());
  }
  if (parsed->given("endpoint")) {
    ensure_attached_host_endpoint(context.client, network->id, endpoint_name, held.address);
  }
  print(context.out, "{}\n", held.address.str());
  return kOk;
}

}  // namespace wincni::hnsctl
