#include <doctest/doctest.h>

#include "plan/endpoint_name.hpp"

using namespace wincni::engine;

TEST_CASE("the sandbox is the container unless dockershim names the pause container") {
  CHECK(sandbox_id("abc", "none") == "abc");
  CHECK(sandbox_id("abc", "") == "abc");
  CHECK(sandbox_id("abc", "container:pause1") == "pause1");
  // Only the first ':' splits, as Go's SplitN(netns, ":", 2).
  CHECK(sandbox_id("abc", "container:a:b") == "a:b");
  CHECK(sandbox_id("abc", "5C0E0F3A-9E0B-4F3C-9D7C-111111111111") == "abc");
}

TEST_CASE("endpoint names are <sandbox>_<network> and read back") {
  CHECK(endpoint_name("pause1", "cbr0") == "pause1_cbr0");
  CHECK(sandbox_of("pause1_cbr0", "cbr0") == "pause1");
  CHECK(sandbox_of("a_b_cbr0", "cbr0") == "a_b");
}

TEST_CASE("names that are not ours do not read back") {
  CHECK_FALSE(sandbox_of("cbr0_ep", "cbr0"));        // flanneld's bridge endpoint
  CHECK_FALSE(sandbox_of("pause1_vxlan0", "cbr0"));  // another network
  CHECK_FALSE(sandbox_of("_cbr0", "cbr0"));          // no sandbox
  CHECK_FALSE(sandbox_of("cbr0", "cbr0"));
  CHECK_FALSE(sandbox_of("-bad_cbr0", "cbr0"));  // not a valid container ID
  CHECK_FALSE(sandbox_of("pause1_CBR0", "cbr0"));
}
