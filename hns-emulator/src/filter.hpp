#pragma once
// Enumerate filters: {"Name":"cbr0"}, {"ID":"<guid>"}, {"VirtualNetwork":"<guid>"},
// {"IsDefault":true}. HNS matches the keys against its v1 object schema,
// even for HCN callers: hcsshim filters a network's endpoints by
// VirtualNetwork, with a TODO to use HostComputeNetwork "once query can
// convert schema" (hcn/hcnendpoint.go). So the emulator refuses a key that
// is no v1 property (a v2-only key in a client would match nothing on
// Windows) unless WINCNI_EMULATOR_FILTER_KEYS=either, which matches keys
// against the v2 view too. Keys match case-insensitively, GUID values too;
// other strings exactly.

#include <nlohmann/json.hpp>

namespace wincni::hns::emulator {

// HcnFailure(E_INVALIDARG) naming a key that is no property of HNS's v1
// objects.
void require_v1_filter_keys(const nlohmann::json& filter);

// `v2_view` null: the v1 view alone decides.
bool matches_filter(const nlohmann::json& filter, const nlohmann::json& v2_view, const nlohmann::json& v1_view);

}  // namespace wincni::hns::emulator
