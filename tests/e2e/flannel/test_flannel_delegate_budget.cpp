// flannel's delegate gives up by the time flannel gave it (run_budget.hpp),
// whether it runs in flannel's process, where nothing could kill it, or as a
// process of its own (the suite flannel-e2e-process-delegates): an HNS call
// that never answers ends the ADD long before HNS's own 30 s call limit,
// and the runtime's DEL leaves nothing.

#include <doctest/doctest.h>

#include <string>

#include "flannel_node.hpp"

using namespace wincni::test;
using json = nlohmann::json;

TEST_CASE("an HNS call that hangs under flannel ends by flannel's delegate timeout; the runtime's DEL cleans up") {
  FlannelNode node;
  node.host_gw_node();
  const json config = node.config("cbr0");
  const std::string netns = node.create_namespace();
  // The endpoint's create never answers; HNS's call limit stays its
  // default, 30 s, and the harness gives a run 60 s.
  const Run add =
      node.plugin({"ADD",
                   "pod1",
                   netns,
                   config.dump(),
                   {{"WINCNI_DELEGATE_TIMEOUT_MS", "2000"}, {"WINCNI_EMULATOR_FAULTS", "CreateEndpoint:1:hang"}}});
  CHECK_MESSAGE(!add.timed_out, add.report());
  CHECK(add.exit_code == 1);
  CHECK(add.code() != 0);

  node.del("pod1", netns, config.dump());
  CHECK_FALSE(node.endpoint("pod1_cbr0"));
  CHECK_FALSE(node.has_scratch("pod1"));
  node.check_clean("cbr0");
}
