// Every HNS call an ADD or DEL makes (found by running it once with the
// emulator's journal on), made to fail, to do its work and lose the answer,
// or to do its work and answer what cannot be read: a failed ADD leaves no endpoint, attachment or address behind and
// nothing in the way of the runtime's next ADD; a DEL that failed is
// finished by the next one. For containerd (HCN) and dockershim (HNS v1).

#include <doctest/doctest.h>

#include "emulator_journal.hpp"
#include "flavor_cases.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

struct Flow {
  const char* name;
  const char* netns;  // "" for a fresh HCN namespace
  const char* version;
};

constexpr Flow kFlows[] = {{"containerd, HCN", "", "1.0.0"}, {"dockershim, HNS v1", "none", "0.3.1"}};

template <class Case>
struct Prepared {
  CaseNode<Case> node;
  std::string netns;
  std::string config;
  explicit Prepared(const Flow& flow)
      : netns(*flow.netns ? flow.netns : node.create_namespace()), config(node.config(flow.version).dump()) {}
};

// Each HNS operation of one clean `command`, numbered per operation.
template <class Case>
std::vector<std::pair<std::string, int>> calls_of(const Flow& flow, const std::string& command) {
  Prepared<Case> p(flow);
  if (command == "DEL") p.node.add("pod1", p.netns, p.config);
  const std::string journal = p.node.path("journal");
  Run run = p.node.plugin({command, "pod1", p.netns, p.config, {{"WINCNI_EMULATOR_JOURNAL", journal}}});
  REQUIRE_MESSAGE(run.ok(), run.out);
  return faultable_calls(journal);
}

template <class Case>
void require_clean(const Prepared<Case>& p) {
  CHECK_FALSE(p.node.endpoint("pod1_" + std::string(Case::kNetwork)));
  CHECK(p.node.held_addresses(Case::kNetwork).empty());
  CHECK(p.node.audit() == "");
}

}  // namespace

TEST_CASE_TEMPLATE("a failure, a lost answer or an unreadable one at any HNS call of ADD: code 100, nothing behind",
                   Case, WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  for (const Flow& flow : kFlows) {
    for (const auto& row : calls_of<Case>(flow, "ADD")) {
      // Named copies, not structured bindings: clang 14 cannot capture those.
      const auto& op = std::get<0>(row);
      const auto& nth = std::get<1>(row);
      for (const char* action : {"fail=0x80004005", "lose=0x80004005", "garble"}) {
        CAPTURE(flow.name);
        CAPTURE(op);
        CAPTURE(nth);
        CAPTURE(action);
        Prepared<Case> p(flow);
        const std::string fault = op + ":" + std::to_string(nth) + ":" + action;
        Run run = p.node.plugin({"ADD", "pod1", p.netns, p.config, {{"WINCNI_EMULATOR_FAULTS", fault}}});
        CHECK(run.exit_code == 1);
        CHECK(run.code() == 100);
        require_clean(p);
        // Nothing in the way of the runtime's next attempt.
        CHECK(p.node.plugin({"ADD", "pod1", p.netns, p.config}).ok());
      }
    }
  }
}

TEST_CASE_TEMPLATE("a failure at any HNS call of DEL is reported, and the next DEL finishes", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  for (const Flow& flow : kFlows) {
    for (const auto& row : calls_of<Case>(flow, "DEL")) {
      // Named copies, not structured bindings: clang 14 cannot capture those.
      const auto& op = std::get<0>(row);
      const auto& nth = std::get<1>(row);
      CAPTURE(flow.name);
      CAPTURE(op);
      CAPTURE(nth);
      Prepared<Case> p(flow);
      p.node.add("pod1", p.netns, p.config);
      const std::string fault = op + ":" + std::to_string(nth) + ":fail=0x80004005";
      Run run = p.node.plugin({"DEL", "pod1", p.netns, p.config, {{"WINCNI_EMULATOR_FAULTS", fault}}});
      CHECK(run.code() == 100);
      p.node.del("pod1", p.netns, p.config);
      require_clean(p);
    }
  }
}
