#include <doctest/doctest.h>

#include "plan/endpoint_marker.hpp"

using namespace wincni;
using namespace wincni::engine;

TEST_CASE("the marker ID is derived from the network and the name, and is a version 8 UUID") {
  const hns::Guid network = *hns::Guid::parse("D01CC818-286B-4B5E-88B8-9B19F352D080");
  const hns::Guid other_network = *hns::Guid::parse("9B245205-0C8C-471B-9BBA-AC0FA3A617E2");
  const hns::Guid id = endpoint_marker_id(network, "pod1_cbr0");
  CHECK(id == endpoint_marker_id(network, "pod1_cbr0"));
  CHECK(id != endpoint_marker_id(network, "pod2_cbr0"));
  CHECK(id != endpoint_marker_id(other_network, "pod1_cbr0"));
  CHECK((id.data3 >> 12) == 8);         // version 8
  CHECK((id.data4[0] & 0xC0) == 0x80);  // RFC 9562 variant
  // Stable across builds and platforms: GC on a node recognises what an
  // older or a Windows build of the plugin made.
  CHECK(id.str() == "877A2565-1B97-8178-9FFE-0598C69508A8");
}

TEST_CASE("only the derived ID marks an endpoint as ours") {
  const hns::Guid network = *hns::Guid::parse("D01CC818-286B-4B5E-88B8-9B19F352D080");
  CHECK(is_marked(endpoint_marker_id(network, "pod1_cbr0"), network, "pod1_cbr0"));
  CHECK_FALSE(is_marked(hns::Guid::generate(), network, "pod1_cbr0"));
  CHECK_FALSE(is_marked(endpoint_marker_id(network, "pod1_cbr0"), network, "pod2_cbr0"));
}
