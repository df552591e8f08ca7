// Fault injection at every HNS call win-overlay's ADD and DEL make (the
// shared sweep, fault_sweep.hpp), in the ways a runtime drives it.

#include <doctest/doctest.h>

#include "fault_sweep.hpp"
#include "overlay_configs.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

void vxlan_node(const EmulatedNode& node) { node.vxlan(); }
void bare_node(const EmulatedNode&) {}

std::vector<FaultFlow> flows() {
  return {
      {"containerd, HCN, host-local", vxlan_node, true, [](const EmulatedNode& node) { return overlay_config(node); }},
      {"dockershim, HNS v1, host-local", vxlan_node, false,
       [](const EmulatedNode& node) {
         json config = overlay_config(node, "0.2.0");
         config.erase("apiVersion");
         return config;
       }},
      {"containerd, network created by the ADD", bare_node, true,
       [](const EmulatedNode& node) {
         json config = overlay_config(node);
         config["master"] = "Ethernet";
         return config;
       }},
  };
}

}  // namespace

TEST_CASE("a failure at any HNS call of ADD leaves nothing behind") {
  check_add_failures_leave_nothing(flows(), "fail=0x80004005");
}

TEST_CASE("an answer lost at any HNS call of ADD leaves nothing behind") {
  check_add_failures_leave_nothing(flows(), "lose=0x80004005");
}

TEST_CASE("a crash at any HNS call of ADD leaves nothing once DEL has run and the runtime's next ADD succeeds") {
  check_add_crashes_are_cleaned_by_del(flows());
}

// The runtime's DEL after the dead ADD without CNI_NETNS, or after it
// removed the sandbox's namespace (natively: the crash sweep above runs
// under Wine too).
TEST_CASE("a crash at any HNS call of ADD, then DEL without CNI_NETNS or after the namespace is gone" *
          doctest::test_suite("<slow>")) {
  check_add_crashes_are_cleaned_by_any_del(flows());
}

TEST_CASE("a failure or a crash at any HNS call of DEL: IPAM still released, a second DEL cleans up") {
  check_del_failures_are_finished_by_del(flows());
}

// Each class of error HNS answers with, on both APIs (as for win-bridge).
TEST_CASE("HNS error classes at every call of ADD and DEL: the pod's network whole or nothing; DEL finishes" *
          doctest::test_suite("<slow>")) {
  check_error_classes({flows()[0], flows()[1]});
}
