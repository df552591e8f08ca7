#pragma once
// The text HNS puts beside an HRESULT (an HCN error record's "Error", a v1
// answer's {"Success":false,"Error":...}). Windows formats it with
// FormatMessage in the host's display language: error records in Chinese
// appear in public logs (projectcalico/calico issues 8465 and 5762). With
// WINCNI_EMULATOR_ERROR_TEXTS=localised the emulator answers in Chinese, so
// that a client reading meaning from English words fails its tests.

#include <string>

#include "wincni/hns/emulator/emulator.hpp"
#include "wincni/hns/hresult.hpp"

namespace wincni::hns::emulator {

// With FormatMessage's trailing blank, as HNS keeps it.
std::string hns_error_text(HResult code, ErrorTextLanguage language);

}  // namespace wincni::hns::emulator
