#pragma once
// An HNS-style error record with our own text, for failures that happen on
// our side of the HCN boundary (a missing DLL, a string that does not
// convert), so that callers see them exactly as they see HNS's failures.

#include <string>
#include <string_view>

#include "wincni/hns/hresult.hpp"

namespace wincni::hns::win32 {

// {"Success":false,"Error":"<message> ","ErrorCode":<code>}
std::string error_record_saying(HResult code, std::string_view message);

}  // namespace wincni::hns::win32
