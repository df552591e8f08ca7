#pragma once
// wincni::hns::Guid has the layout of the Windows GUID struct (guid.hpp), so
// the conversion is a copy; REFGUID parameters are `const GUID*` on the ABI.

#include <windows.h>

#include <cstring>

#include "wincni/hns/guid.hpp"

namespace wincni::hns::win32 {

static_assert(sizeof(GUID) == sizeof(Guid), "GUID and wincni::hns::Guid must have one layout");

inline GUID to_win32(const Guid& guid) {
  GUID out;
  out.Data1 = guid.data1;
  out.Data2 = guid.data2;
  out.Data3 = guid.data3;
  std::memcpy(out.Data4, guid.data4.data(), sizeof out.Data4);
  return out;
}

inline Guid from_win32(const GUID& guid) {
  Guid out;
  out.data1 = guid.Data1;
  out.data2 = guid.Data2;
  out.data3 = guid.Data3;
  std::memcpy(out.data4.data(), guid.Data4, sizeof guid.Data4);
  return out;
}

}  // namespace wincni::hns::win32
