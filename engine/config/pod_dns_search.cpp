#include "config/pod_dns_search.hpp"

#include <algorithm>
#include <array>

namespace wincni::engine {

namespace {

constexpr std::string_view kServicesLabel = "svc.";
// The kubelet's --cluster-domain when nobody sets it (kubeadm's too).
constexpr std::string_view kDefaultClusterDomain = "cluster.local";

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string_view without_final_dot(std::string_view name) {
  return name.ends_with('.') ? name.substr(0, name.size() - 1) : name;
}

// Equal as DNS names: letter case and the root's trailing dot aside.
bool same_name(std::string_view a, std::string_view b) {
  a = without_final_dot(a);
  b = without_final_dot(b);
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return lower(x) == lower(y);
         });
}

bool starts_with_services_label(std::string_view name) {
  return name.size() > kServicesLabel.size() && same_name(name.substr(0, kServicesLabel.size()), kServicesLabel);
}

}  // namespace

bool is_namespace_name(std::string_view name) {
  if (name.empty() || name.size() > 63 || name.front() == '-' || name.back() == '-') return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

std::optional<std::string> cluster_domain(const std::vector<std::string>& search, std::string_view configured_domain) {
  for (const std::string& entry : search) {
    if (starts_with_services_label(entry)) {
      const std::string_view domain = without_final_dot(std::string_view(entry).substr(kServicesLabel.size()));
      if (!domain.empty()) return std::string(domain);
    }
  }
  for (const std::string& entry : search) {
    const bool configured = !configured_domain.empty() && same_name(entry, configured_domain);
    if (configured || same_name(entry, kDefaultClusterDomain)) return std::string(without_final_dot(entry));
  }
  return std::nullopt;
}

std::vector<std::string> with_pod_namespace(const std::vector<std::string>& search, std::string_view pod_namespace,
                                            std::string_view configured_domain) {
  const std::optional<std::string> domain = cluster_domain(search, configured_domain);
  if (!domain || !is_namespace_name(pod_namespace)) return search;
  const std::array<std::string, 3> promised{std::string(pod_namespace) + ".svc." + *domain, "svc." + *domain, *domain};
  // Where each promised entry is in `search`, if it is.
  std::array<std::optional<std::size_t>, 3> at;
  std::optional<std::size_t> first, last;  // positions in `search` of the first and last present
  std::size_t first_rank = 0;              // which promised entry is at `first`
  for (std::size_t i = 0; i < search.size(); ++i) {
    for (std::size_t rank = 0; rank < promised.size(); ++rank) {
      if (at[rank] || !same_name(search[i], promised[rank])) continue;
      at[rank] = i;
      if (!first) {
        first = i;
        first_rank = rank;
      }
      last = i;
    }
  }
  std::vector<std::string> before, after;
  for (std::size_t rank = 0; rank < promised.size(); ++rank) {
    if (at[rank]) continue;
    (rank < first_rank ? before : after).push_back(promised[rank]);
  }
  // cluster_domain found one of them, so first and last are set.
  std::vector<std::string> out(search.begin(), search.begin() + static_cast<std::ptrdiff_t>(*first));
  out.insert(out.end(), before.begin(), before.end());
  out.insert(out.end(), search.begin() + static_cast<std::ptrdiff_t>(*first),
             search.begin() + static_cast<std::ptrdiff_t>(*last) + 1);
  out.insert(out.end(), after.begin(), after.end());
  out.insert(out.end(), search.begin() + static_cast<std::ptrdiff_t>(*last) + 1, search.end());
  return out;
}

}  // namespace wincni::engine
