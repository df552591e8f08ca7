// The safety invariant of every deleting action (live_pods_invariant.hpp),
// for each of the engine's flavors, in process.

#include <doctest/doctest.h>

#include "flavor_cases.hpp"
#include "live_pods_invariant.hpp"

using namespace wincni;
using namespace wincni::test;

TEST_CASE_TEMPLATE(
    "no deleting action removes a live pod's endpoint, no address is held twice, nothing outside the "
    "data folders changes",
    Case, WINCNI_FLAVOR_CASES) {
  constexpr int kSequences = 20;
  INFO(Case::kName);
  std::mt19937 random(invariant_seed());
  int steps = 0;
  for (int number = 0; number < kSequences; ++number) {
    CaseNode<Case> node;
    steps += InvariantSequence<CaseNode<Case>>(
                 node, random, number, Case::kNetwork,
                 [](const CaseNode<Case>& n, const std::string& version) { return n.config(version); })
                 .run();
  }
  MESSAGE(std::string(Case::kName), ": ", kSequences, " sequences, ", steps, " steps, seed ", invariant_seed(),
          ", invariant held after each");
}
