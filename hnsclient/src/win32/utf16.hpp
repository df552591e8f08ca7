#pragma once
// The win32 layer converts every string that crosses a W entry point; the
// strict converters live in libcni, shared with the plugins' file code.

#include "wincni/cni/utf16.hpp"

namespace wincni::hns::win32 {
using cni::narrow;
using cni::Utf16Error;
using cni::widen;
}  // namespace wincni::hns::win32
