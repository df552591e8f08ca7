#pragma once
// CNI_ARGS: "K=V;K=V" pairs, the deprecated-but-universal side channel through
// which runtimes pass pod identity (K8S_POD_*) and host-local takes IP=.
//
// Parsing follows Go's types.LoadArgs, with one decision of ours for the
// error code: Go returns a plain error, which the reference plugins turn into
// 999. A malformed CNI_ARGS is an invalid environment variable, so ours is
// Error 4 (kInvalidEnvironment), and every message names CNI_ARGS.
//   - "" is no pairs.
//   - Each pair must contain exactly one '=' and a non-empty key (Go accepts
//     an empty key only to reject it as unknown); an empty value is allowed,
//     as in Go. Keys are case-sensitive, as Go's struct field names are.
//   - A repeated key: the last one wins, as in Go.
//   - Keys the caller did not declare are rejected, all named in one error,
//     unless IgnoreUnknown is true. IgnoreUnknown takes 1/true/0/false in any
//     letter case; anything else is an error.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wincni/cni/ip.hpp"

namespace wincni::cni {

namespace cni_arg_keys {
inline constexpr std::string_view kIgnoreUnknown = "IgnoreUnknown";
inline constexpr std::string_view kIp = "IP";
inline constexpr std::string_view kPodNamespace = "K8S_POD_NAMESPACE";
inline constexpr std::string_view kPodName = "K8S_POD_NAME";
inline constexpr std::string_view kPodInfraContainerId = "K8S_POD_INFRA_CONTAINER_ID";
inline constexpr std::string_view kPodUid = "K8S_POD_UID";
}  // namespace cni_arg_keys

// The keys container runtimes send (containerd, CRI-O, dockershim) plus IP.
const std::vector<std::string_view>& standard_cni_arg_keys();

class CniArgs {
 public:
  // `known_keys` are the keys the plugin understands besides IgnoreUnknown.
  static CniArgs parse(std::string_view text, const std::vector<std::string_view>& known_keys);
  // Known keys: standard_cni_arg_keys().
  static CniArgs parse(std::string_view text);

  bool ignore_unknown() const { return ignore_unknown_; }
  // Any key present in the text, declared or not; nullopt when absent.
  std::optional<std::string> get(std::string_view key) const;
  const std::map<std::string, std::string, std::less<>>& pairs() const { return pairs_; }

  std::optional<std::string> pod_namespace() const { return get(cni_arg_keys::kPodNamespace); }
  std::optional<std::string> pod_name() const { return get(cni_arg_keys::kPodName); }
  std::optional<std::string> pod_infra_container_id() const { return get(cni_arg_keys::kPodInfraContainerId); }
  std::optional<std::string> pod_uid() const { return get(cni_arg_keys::kPodUid); }
  // IP=<address>; Error 4 when present but not a plain IPv4/IPv6 address.
  std::optional<IpAddress> ip() const;

 private:
  std::map<std::string, std::string, std::less<>> pairs_;
  bool ignore_unknown_ = false;
};

}  // namespace wincni::cni
