// The fault sweeps (fault_sweep.hpp) with flannel as the plugin the runtime
// runs: every HNS call its delegate (win-bridge on host-gw, win-overlay on
// vxlan) makes, failing, losing its answer, crashing the delegate, or
// answering each class of error. flannel passes the delegate's error on and
// leaves no scratch file of a pod that has no network (the doctor in
// require_clean's audit checks that). Not under Wine, where the delegates'
// .exe files are swept by their own suites, nor in CI's sanitized pass
// (flannel-e2e's 'lean_args'); scripts/sanitize.sh runs them whole.

#include <doctest/doctest.h>

#include "fault_sweep.hpp"
#include "flannel_node.hpp"

using namespace wincni::test;

namespace {

std::vector<FaultFlow> flows() {
  return {
      {"flannel host-gw, containerd, HCN", flanneld_host_gw, true,
       [](const EmulatedNode& node) { return flannel_config(node, "cbr0"); }},
      {"flannel vxlan, containerd, HCN", flanneld_vxlan, true,
       [](const EmulatedNode& node) {
         return flannel_config(node, "flannel.4096", {{"delegate", {{"type", "win-overlay"}}}});
       }},
      {"flannel host-gw, dockershim, HNS v1", flanneld_host_gw, false,
       [](const EmulatedNode& node) {
         return flannel_config(node, "cbr0", {{"cniVersion", "0.2.0"}});
       }},
  };
}

}  // namespace

TEST_CASE("flannel: a failure or a lost answer at any HNS call of its delegate's ADD leaves nothing behind" *
          doctest::test_suite("<slow>")) {
  check_add_failures_leave_nothing(flows(), "fail=0x80004005");
  check_add_failures_leave_nothing(flows(), "lose=0x80004005");
}

TEST_CASE("flannel: a crash of its delegate at any HNS call of ADD leaves nothing once DEL has run" *
          doctest::test_suite("<slow>")) {
  check_add_crashes_are_cleaned_by_del(flows());
}

// The runtime's DEL after the dead ADD without CNI_NETNS, or after it
// removed the sandbox's namespace.
TEST_CASE("flannel: a crash at any HNS call of ADD, then DEL without CNI_NETNS or after the namespace is gone" *
          doctest::test_suite("<slow>")) {
  check_add_crashes_are_cleaned_by_any_del(flows());
}

TEST_CASE("flannel: a failure or a crash at any HNS call of its delegate's DEL: a second DEL cleans up" *
          doctest::test_suite("<slow>")) {
  check_del_failures_are_finished_by_del(flows());
}

TEST_CASE("flannel: an answer lost at any HNS call of its delegate's DEL: the repeat finds the work done" *
          doctest::test_suite("<slow>")) {
  check_del_lost_answers_are_repeated(flows());
}

TEST_CASE("flannel: HNS error classes at every call of its delegate's ADD and DEL" * doctest::test_suite("<slow>")) {
  check_error_classes({flows()[0], flows()[2]});
}
