// The safety invariant of every deleting action (live_pods_invariant.hpp)
// through flannel's binary on a flanneld host-gw node: its saved delegate
// configs, its GC and DEL's replay take part. Named "flannel: ..." so that
// the lean runs (Wine, sanitized) leave it out: it starts thousands of
// processes.

#include <doctest/doctest.h>

#include "flannel_node.hpp"
#include "live_pods_invariant.hpp"

namespace wincni::test {

TEST_CASE(
    "flannel: no deleting action removes a live pod's endpoint, no address is held twice, nothing outside "
    "the data folders changes" *
    doctest::test_suite("<slow>")) {
  constexpr int kSequences = 6;
  std::mt19937 random(invariant_seed());
  int steps = 0;
  for (int number = 0; number < kSequences; ++number) {
    FlannelNode node;
    node.host_gw_node();
    steps += InvariantSequence<FlannelNode>(node, random, number, "cbr0",
                                            [](const FlannelNode& n, const std::string& version) {
                                              return n.config("cbr0", {{"cniVersion", version}});
                                            })
                 .run();
  }
  MESSAGE("flannel: ", kSequences, " sequences, ", steps, " steps, seed ", invariant_seed(),
          ", invariant held after each");
}

}  // namespace wincni::test
