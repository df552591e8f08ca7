// Whether an endpoint attached to the host reads as attached in HNS v1's
// State is not public: a Windows 11 host showed 1 ("created") for an
// attached endpoint (microsoft/Windows-Containers#563). The emulator's
// answer is a switch, WINCNI_EMULATOR_ATTACHED_STATE; under "created" the
// plugin attaches the network's host endpoint again at every ADD, and HNS
// answers HCN_E_ENDPOINT_ALREADY_ATTACHED, which must not fail the pod.

#include <doctest/doctest.h>

#include "configs.hpp"
#include "emulated_node.hpp"

using namespace wincni::test;

TEST_CASE("a host endpoint HNS does not report attached: \"already attached\" is no failure, ADD after ADD") {
  EmulatedNode node;
  const std::string config = fixture(node, "legacy-wincni-l2bridge.conf").dump();
  const std::map<std::string, std::string> created_state{{"WINCNI_EMULATOR_ATTACHED_STATE", "created"}};
  std::vector<std::pair<std::string, std::string>> pods;
  for (const std::string pod : {"pod1", "pod2", "pod3"}) {
    const std::string ns = node.create_namespace();
    Run added = node.plugin({"ADD", pod, ns, config, created_state});
    CHECK_MESSAGE(added.ok(), added.report());
    pods.emplace_back(pod, ns);
  }
  // Read with State 1, the host endpoint the plugin made is a note for
  // audit, not a leak.
  const Run audit = node.hnsctl({"audit"}, created_state);
  CHECK_MESSAGE(audit.exit_code == 0, audit.report());
  CHECK_MESSAGE(audit.out.find("note: endpoint ") != std::string::npos, audit.report());
  CHECK_MESSAGE(audit.out.find("wincni's host endpoint") != std::string::npos, audit.report());
  for (const auto& [pod, ns] : pods) {
    Run removed = node.plugin({"DEL", pod, ns, config, created_state});
    CHECK_MESSAGE(removed.ok(), removed.report());
  }
  // Read with the default State, HNS's own view is whole.
  CHECK(node.audit() == "");
}
