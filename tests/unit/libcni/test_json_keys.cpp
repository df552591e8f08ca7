#include <doctest/doctest.h>

#include "wincni/cni/json_keys.hpp"

using wincni::cni::find_key;

TEST_CASE("find_key prefers the exact key, then any ASCII case") {
  auto j = nlohmann::json::parse(R"({"ApiVersion": 1, "apiVersion": 2, "Policies": []})");
  REQUIRE(find_key(j, "apiVersion") != nullptr);
  CHECK(*find_key(j, "apiVersion") == 2);
  CHECK(*find_key(j, "APIVERSION") == 1);  // first case-insensitive match in key order
  CHECK(find_key(j, "policies")->is_array());
  CHECK(find_key(j, "missing") == nullptr);
  CHECK(find_key(nlohmann::json::array(), "x") == nullptr);
}
