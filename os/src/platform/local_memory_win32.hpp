#pragma once
// Memory the security API hands back (security descriptors, SIDs, their
// text), freed with LocalFree when its owner goes.

#include <windows.h>

#include <memory>

namespace wincni::os::platform {

struct LocalFreeDeleter {
  void operator()(void* p) const { LocalFree(p); }
};

using LocalMemory = std::unique_ptr<void, LocalFreeDeleter>;

}  // namespace wincni::os::platform
