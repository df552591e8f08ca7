#include "command_entry_points.hpp"

namespace wincni::hnsctl {

const std::vector<Command>& all_commands() {
  static const std::vector<Command> commands = {
      {"network", "list", "list networks (--json: HNS v2 objects)", network_list},
      {"network", "show", "show one network, by name or ID", network_show},
      {"network", "delete", "delete a network, by name or ID", network_delete},
      {"endpoint", "list", "list endpoints (--json: HNS v2 objects)", endpoint_list},
      {"endpoint", "show", "show one endpoint, by name or ID", endpoint_show},
      {"endpoint", "delete", "delete an endpoint, by name or ID", endpoint_delete},
      {"namespace", "list", "list namespaces (--json: HNS v2 objects)", namespace_list},
      {"namespace", "create", "create a namespace and print its ID", namespace_create},
      {"namespace", "delete", "delete a namespace by ID", namespace_delete},
      {"lb", "list", "list load balancers (kube-proxy's service frontends; --json: HNS v2 objects)",
       load_balancer_list},
      {"lb", "show", "show one load balancer by ID, and whether each backend endpoint exists", load_balancer_show},
      {"container", "start", "create a dockershim container's compute system in HCS, as Docker does", container_start},
      {"container", "stop", "end a container's compute system in HCS", container_stop},
      {"container", "show", "show a container's compute system", container_show},
      {"node", "host-gw", "set the node up as flanneld's host-gw backend does", node_host_gw},
      {"node", "vxlan", "set the node up as flanneld's vxlan backend does", node_vxlan},
      {"version", "show", "the HNS version and its features (also: hnsctl version)", version_show},
      {"caps", "show", "what this host's HNS lets wincni do, setting by setting (also: hnsctl caps)", caps_show},
      {"explain", "add", "what ADD would do with a config, without doing it (also: hnsctl explain [FILE])",
       explain_add},
      {"audit", "run", "find leaked or inconsistent objects; exit 1 if any (also: hnsctl audit)", audit_run},
      {"doctor", "run",
       "find (--apply: remove) what pods that are gone left: endpoints, allocations, scratch files (also: hnsctl "
       "doctor)",
       doctor_run},
      {"collect", "run",
       "write one zip with HNS's objects, configs, caches, logs and versions for a maintainer, secrets left out "
       "(also: hnsctl collect)",
       collect_run},
      {"source-vip", "reserve",
       "reserve kube-proxy's source VIP in the pods' host-local store and print it (also: hnsctl source-vip NETWORK)",
       source_vip_reserve},
  };
  return commands;
}

}  // namespace wincni::hnsctl
