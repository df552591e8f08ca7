#pragma once
// The win32 layer converts every string that crosses a W entry point; the
// strict converters live in os/, shared with the plugins' file code.

#include "wincni/os/utf16.hpp"

namespace wincni::hns::win32 {
using os::narrow;
using os::Utf16Error;
using os::widen;
}  // namespace wincni::hns::win32
