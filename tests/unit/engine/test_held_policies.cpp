// An endpoint holds its plan's policies beside the ones HNS adds itself.

#include <doctest/doctest.h>

#include "plan/held_policies.hpp"

using namespace wincni;
using namespace wincni::engine;

namespace {

hns::Policy mapping(std::uint16_t host_port) {
  hns::PortMappingPolicy settings;
  settings.protocol.number = 6;
  settings.internal_port = 80;
  settings.external_port = host_port;
  settings.flags = hns::PortMappingPolicy::kLocalRoutedVip;
  return hns::Policy{settings};
}

hns::Policy route(const std::string& destination) {
  hns::SdnRoutePolicy settings;
  settings.destination_prefix = destination;
  return hns::Policy{settings};
}

hns::Policy nat() {
  hns::OutboundNatPolicy settings;
  settings.exceptions = {"10.244.0.0/16"};
  return hns::Policy{settings};
}

}  // namespace

TEST_CASE("held policies: HNS's route and L2Driver beside the plan's are the plan held") {
  const std::vector<hns::Policy> planned{nat(), mapping(8080)};
  CHECK(holds_planned_policies({mapping(8080), nat()}, planned));
  CHECK(holds_planned_policies({nat(), mapping(8080), route("10.244.1.5/32")}, planned));
  CHECK(holds_planned_policies({nat(), mapping(8080), hns::parse_policy_v2({{"Type", "L2Driver"}})}, planned));
}

TEST_CASE("held policies: anything missing, or extra of a kind HNS does not add, is another endpoint") {
  const std::vector<hns::Policy> planned{nat(), mapping(8080)};
  CHECK_FALSE(holds_planned_policies({nat()}, planned));
  CHECK_FALSE(holds_planned_policies({nat(), mapping(8081)}, planned));
  CHECK_FALSE(holds_planned_policies({nat(), mapping(8080), mapping(9090)}, planned));
  CHECK_FALSE(holds_planned_policies({nat(), nat(), mapping(8080)}, planned));
  // A planned route must be there itself: HNS's own does not stand in for it.
  CHECK_FALSE(holds_planned_policies({nat(), route("10.244.1.5/32")}, {nat(), route("10.96.0.0/12")}));
  // An extra route where no mapping is local-routed, or an encapsulated one
  // (flannel's service route of an older config), is not HNS's.
  CHECK_FALSE(holds_planned_policies({nat(), route("10.244.1.5/32")}, {nat()}));
  hns::Policy encapsulated = route("10.96.0.0/12");
  encapsulated.as<hns::SdnRoutePolicy>()->need_encap = true;
  CHECK_FALSE(holds_planned_policies({nat(), mapping(8080), encapsulated}, planned));
}

TEST_CASE("held policies: the EncapOverhead HNS puts on an Overlay endpoint (50) is HNS's, another one is not") {
  const auto overhead = [](std::uint16_t bytes) { return hns::Policy{hns::EncapOverheadPolicy{bytes}}; };
  CHECK(holds_planned_policies({nat(), overhead(50)}, {nat()}));
  CHECK_FALSE(holds_planned_policies({nat(), overhead(40)}, {nat()}));
  CHECK(holds_planned_policies({nat(), overhead(40)}, {nat(), overhead(40)}));
  CHECK_FALSE(holds_planned_policies({nat(), overhead(50)}, {nat(), overhead(40)}));
}
