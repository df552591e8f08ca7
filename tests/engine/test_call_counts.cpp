// The HNS calls a pod's ADD and DEL, and STATUS (every kubelet poll), make
// do not grow with the pods already on the node: the same calls, in the same
// order, beside 0 and 50 other endpoints. Counts, not times, so the test holds on any machine; the
// benchmark (scripts/bench.sh) measures the times and goes to 5000.

#include <doctest/doctest.h>

#include <algorithm>

#include "emulator_journal.hpp"
#include "flavor_cases.hpp"

using namespace wincni;
using namespace wincni::test;

namespace {

constexpr int kPodsBeside = 50;

// The calls ADD, DEL and STATUS of `sandbox` make, by operation, in order.
template <class Case>
std::vector<std::string> calls_of_add_del_status(const CaseNode<Case>& node, const std::string& sandbox) {
  const std::string config = node.config("1.1.0").dump();
  const std::string ns = node.create_namespace();
  std::vector<std::string> calls;
  for (const char* command : {"ADD", "DEL", "STATUS"}) {
    const std::string journal = node.path(sandbox + "-" + command + ".journal");
    Run run = node.plugin({command, sandbox, ns, config, {{"WINCNI_EMULATOR_JOURNAL", journal}}});
    REQUIRE_MESSAGE(run.ok(), command << ": " << run.out);
    calls.push_back(command);
    for (const nlohmann::json& entry : journal_entries(journal)) calls.push_back(entry.at("op"));
  }
  return calls;
}

}  // namespace

TEST_CASE_TEMPLATE("ADD, DEL and STATUS make the same HNS calls beside 0 and 50 pods", Case, WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::vector<std::string> alone = calls_of_add_del_status(node, "first");
  // The journal was written: an ADD makes several HNS calls, a DEL some, so
  // two empty journals cannot pass for equal ones.
  const auto del_at = std::find(alone.begin(), alone.end(), "DEL");
  const auto status_at = std::find(alone.begin(), alone.end(), "STATUS");
  REQUIRE(del_at != alone.end());
  CHECK(del_at - alone.begin() > 3);
  CHECK(status_at - del_at > 1);
  for (int pod = 0; pod < kPodsBeside; ++pod) {
    node.add("beside-" + std::to_string(pod), node.create_namespace(), node.config().dump());
  }
  REQUIRE(node.endpoints().size() >= kPodsBeside);
  CHECK(calls_of_add_del_status(node, "crowded") == alone);
}
