#pragma once
// The DNS search list Kubernetes promises a pod: `<namespace>.svc.<domain>
// svc.<domain> <domain>` (kubernetes.io, "DNS for Services and Pods"). On
// Linux the kubelet writes it into the pod's resolv.conf; on Windows nobody
// does, and the suffixes on the HNS endpoint are all the pod's resolver
// tries, so a config's `"search": ["svc.cluster.local"]` alone leaves a
// pod unable to reach a service of its own namespace by its short name.
// Microsoft's sdnbridge/sdnoverlay replace the first search domain with
// `<namespace>.` + it; we add what is missing and keep every entry the
// operator wrote, in their order (docs/configuration.md, "Pod DNS").

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wincni::engine {

// RFC 1123 label, as Kubernetes requires of a namespace's name: 1-63 of
// a-z, 0-9 and '-', neither first nor last a '-'. Anything else from
// CNI_ARGS is not used: a ',' would split HNS v1's DNSSuffix list.
bool is_namespace_name(std::string_view name);

// The cluster's domain as `search` names it: from its first `svc.<domain>`
// entry; else from an entry equal to `configured_domain` (the config's
// dns.domain) or to Kubernetes' default "cluster.local". Letter case and a
// trailing dot are ignored in matching; the domain is returned as written.
std::optional<std::string> cluster_domain(const std::vector<std::string>& search, std::string_view configured_domain);

// `search` with the pod's entries added: of `<namespace>.svc.<domain>`,
// `svc.<domain>` and `<domain>`, those missing go in that order right
// before the first of them present (the ones that come before it) and
// right after the last present (the rest). Nothing is removed or moved;
// nothing present (in any case, with or without the trailing dot) is
// added again. Unchanged when no cluster domain is found.
std::vector<std::string> with_pod_namespace(const std::vector<std::string>& search, std::string_view pod_namespace,
                                            std::string_view configured_domain);

}  // namespace wincni::engine
