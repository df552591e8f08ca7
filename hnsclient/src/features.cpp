#include "wincni/hns/features.hpp"

#include <array>
#include <charconv>

#include <fmt/format.h>

namespace wincni::hns {
namespace {

// An inclusive version range; `last` empty means "and every later version".
struct VersionRange {
  HnsVersion first;
  std::optional<HnsVersion> last;
};

// A minor of 1000 stands for "every minor of that major" (e.g. 9.3–9.x).
constexpr int kAnyMinor = 1000;

struct FeatureRow {
  Feature feature;
  std::string_view name;
  std::vector<VersionRange> ranges;
};

const std::vector<FeatureRow>& feature_table() {
  static const std::vector<FeatureRow> table = {
      {Feature::ApiV1, "ApiV1", {{{0, 0}, std::nullopt}}},
      {Feature::Acl, "Acl", {{{7, 2}, std::nullopt}}},
      {Feature::ApiV2, "ApiV2", {{{9, 2}, std::nullopt}}},
      {Feature::RemoteSubnet, "RemoteSubnet", {{{9, 2}, std::nullopt}}},
      {Feature::HostRoute, "HostRoute", {{{9, 2}, std::nullopt}}},
      {Feature::Dsr, "DSR", {{{9, 3}, HnsVersion{9, kAnyMinor}}, {{10, 2}, std::nullopt}}},
      {Feature::Slash32EndpointPrefixes,
       "Slash32EndpointPrefixes",
       {{{9, 3}, HnsVersion{9, kAnyMinor}}, {{10, 4}, std::nullopt}}},
      {Feature::VxlanPort, "VxlanPort", {{{10, 3}, std::nullopt}}},
      {Feature::AclSupportForProtocol252, "AclSupportForProtocol252", {{{11, 0}, std::nullopt}}},
      {Feature::Ipv6DualStack, "IPv6DualStack", {{{11, 10}, std::nullopt}}},
      {Feature::SessionAffinity, "SessionAffinity", {{{12, 0}, std::nullopt}}},
      {Feature::SetPolicy, "SetPolicy", {{{13, 0}, std::nullopt}}},
      {Feature::L4Proxy,
       "L4Proxy",
       {{{9, 5}, HnsVersion{9, kAnyMinor}},
        {{10, 5}, HnsVersion{10, kAnyMinor}},
        {{11, 11}, HnsVersion{11, kAnyMinor}},
        {{12, 1}, HnsVersion{12, kAnyMinor}},
        {{13, 1}, std::nullopt}}},
      {Feature::L4WfpProxy, "L4WfpProxy", {{{13, 2}, std::nullopt}}},
      {Feature::TierAcl, "TierAcl", {{{14, 0}, std::nullopt}}},
      {Feature::NetworkAcl, "NetworkACL", {{{15, 0}, std::nullopt}}},
      {Feature::NestedIpSet, "NestedIpSet", {{{15, 0}, std::nullopt}}},
      {Feature::DisableHostPort, "DisableHostPort", {{{15, 1}, std::nullopt}}},
      {Feature::ModifyLoadbalancer, "ModifyLoadbalancer", {{{15, 4}, std::nullopt}}},
      {Feature::Accelnet, "Accelnet", {{{15, 4}, std::nullopt}}},
  };
  return table;
}

const FeatureRow& row_of(Feature feature) {
  for (const auto& row : feature_table()) {
    if (row.feature == feature) return row;
  }
  return feature_table().front();  // unreachable: every enumerator has a row
}

// HNS reports each part as a 16-bit number (and the emulator stores it so).
bool parse_int(std::string_view text, int& out) {
  if (text.empty()) return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc{} && end == text.data() + text.size() && out >= 0 && out <= 0xFFFF;
}

}  // namespace

std::string feature_versions(Feature feature) {
  std::string text;
  for (const VersionRange& range : row_of(feature).ranges) {
    if (!text.empty()) text += ", ";
    if (!range.last) {
      text += fmt::format("{} and later", range.first.str());
    } else if (range.last->minor == kAnyMinor) {
      text += fmt::format("{}-{}.x", range.first.str(), range.last->major);
    } else {
      text += fmt::format("{}-{}", range.first.str(), range.last->str());
    }
  }
  return text;
}

std::optional<HnsVersion> HnsVersion::parse(std::string_view text) {
  auto dot = text.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  HnsVersion version;
  if (!parse_int(text.substr(0, dot), version.major) || !parse_int(text.substr(dot + 1), version.minor)) {
    return std::nullopt;
  }
  return version;
}

std::string HnsVersion::str() const { return fmt::format("{}.{}", major, minor); }

std::string_view feature_name(Feature feature) { return row_of(feature).name; }

bool supports(HnsVersion version, Feature feature) {
  for (const auto& range : row_of(feature).ranges) {
    if (version >= range.first && (!range.last || version <= *range.last)) return true;
  }
  return false;
}

std::vector<Feature> features_of(HnsVersion version) {
  std::vector<Feature> result;
  for (const auto& row : feature_table()) {
    if (supports(version, row.feature)) result.push_back(row.feature);
  }
  return result;
}

const std::vector<Feature>& all_features() {
  static const std::vector<Feature> all = [] {
    std::vector<Feature> features;
    for (const auto& row : feature_table()) features.push_back(row.feature);
    return features;
  }();
  return all;
}

}  // namespace wincni::hns
