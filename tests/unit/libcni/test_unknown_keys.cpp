#include <doctest/doctest.h>

#include <array>
#include <string_view>

#include "wincni/cni/unknown_keys.hpp"

using namespace wincni;
using nlohmann::json;

namespace {
constexpr std::array<std::string_view, 3> kKnown{"serviceCIDR", "subnetFile", "delegate"};
}  // namespace

TEST_CASE("unknown keys: a typo is named with the known key nearest to it") {
  const json config = json::parse(R"({"name":"cbr0","type":"flannel","serivceCIDR":"10.96.0.0/12",
                                      "plugin":[],"SubnetFile":"/run/flannel/subnet.env","frobnicate":1})");
  const auto warnings = cni::unknown_key_warnings(config, cni::kCommonConfigKeys, kKnown);
  REQUIRE(warnings.size() == 3);
  CHECK(warnings[0] == "unknown key \"frobnicate\" is ignored");  // nothing near it
  CHECK(warnings[1] == "unknown key \"plugin\" is ignored (did you mean \"plugins\"?)");
  CHECK(warnings[2] == "unknown key \"serivceCIDR\" is ignored (did you mean \"serviceCIDR\"?)");
}

TEST_CASE("unknown keys: case does not matter, as the readers match keys; a nested object names its path") {
  const json config =
      json::parse(R"({"NAME":"x","Type":"win-bridge","SERVICECIDR":"10.96.0.0/12","logFile":"C:\\var\\log\\cni.log"})");
  CHECK(cni::unknown_key_warnings(config, cni::kCommonConfigKeys, kKnown).empty());
  constexpr std::array<std::string_view, 4> dns_keys{"nameservers", "domain", "search", "options"};
  const auto warnings =
      cni::unknown_key_warnings(json::parse(R"({"Nameservers":[],"serach":[]})"), dns_keys, {}, "dns");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "unknown key \"dns.serach\" is ignored (did you mean \"search\"?)");
  CHECK(cni::unknown_key_warnings(json::array(), dns_keys).empty());
}
