#pragma once
// The HNS version and what it implies. Clients learn the version only from
// vmcompute's HNSCall GET /globals/version (hcsshim does the same), and the
// feature table follows hcsshim's hcnsupport.go (docs/reference/hns-api.md §2).

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wincni::hns {

struct HnsVersion {
  int major = 0;
  int minor = 0;

  // "13.2"; nullopt on anything else.
  static std::optional<HnsVersion> parse(std::string_view text);
  std::string str() const;

  friend auto operator<=>(const HnsVersion&, const HnsVersion&) = default;
};

enum class Feature {
  ApiV1,
  Acl,  // the 1803 ACL features
  ApiV2,
  RemoteSubnet,
  HostRoute,
  Dsr,
  Slash32EndpointPrefixes,
  VxlanPort,
  AclSupportForProtocol252,
  Ipv6DualStack,
  SessionAffinity,
  SetPolicy,
  L4Proxy,
  L4WfpProxy,
  TierAcl,
  NetworkAcl,
  NestedIpSet,
  DisableHostPort,
  ModifyLoadbalancer,
  Accelnet,
};

std::string_view feature_name(Feature feature);
// The HNS versions that have `feature`, as an operator reads them:
// "9.3-9.x, 10.2 and later".
std::string feature_versions(Feature feature);
bool supports(HnsVersion version, Feature feature);
// Every feature `version` has, in declaration order.
std::vector<Feature> features_of(HnsVersion version);
const std::vector<Feature>& all_features();

}  // namespace wincni::hns
