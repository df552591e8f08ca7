#pragma once
// Case-insensitive key lookup, as Go's encoding/json matches struct fields:
// an exact match wins, otherwise the first key equal ignoring ASCII case.

#include <string_view>

#include <nlohmann/json.hpp>

namespace wincni::cni {

bool equals_ignore_case(std::string_view a, std::string_view b);

// nullptr when `object` is not an object or has no such key.
const nlohmann::json* find_key(const nlohmann::json& object, std::string_view key);

}  // namespace wincni::cni
