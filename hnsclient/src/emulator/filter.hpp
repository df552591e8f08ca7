#pragma once
// Enumerate filters: {"Name":"cbr0"}, {"ID":"<guid>"}, {"VirtualNetwork":"<guid>"},
// {"IsDefault":true}. HNS matches each key against the object's properties,
// in either schema (VirtualNetwork is a v1 name that v2 callers use), so the
// filter is checked against both views. Keys match case-insensitively, GUID
// values too; other strings exactly.

#include <nlohmann/json.hpp>

namespace wincni::hns::emulator {

bool matches_filter(const nlohmann::json& filter, const nlohmann::json& v2_view, const nlohmann::json& v1_view);

}  // namespace wincni::hns::emulator
