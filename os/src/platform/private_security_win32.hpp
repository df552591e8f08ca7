#pragma once
// The security a plugin's own files and folders get on Windows: SYSTEM and
// the Administrators, full control, inherited by what is created inside;
// nothing inherited from above (the default ACL of a drive root lets every
// authenticated user create and read there). Shared by the private files
// and the log file.

#include <windows.h>
#include <sddl.h>

#include "local_memory_win32.hpp"

namespace wincni::os::platform {

class PrivateSecurity {
 public:
  PrivateSecurity() {
    PSECURITY_DESCRIPTOR sd = nullptr;
    if (ConvertStringSecurityDescriptorToSecurityDescriptorW(L"D:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)", SDDL_REVISION_1,
                                                             &sd, nullptr)) {
      descriptor_.reset(sd);
      attributes_.nLength = sizeof attributes_;
      attributes_.lpSecurityDescriptor = sd;
      attributes_.bInheritHandle = FALSE;
    }
  }
  // nullptr (default security) if the descriptor could not be built.
  SECURITY_ATTRIBUTES* get() { return descriptor_ ? &attributes_ : nullptr; }

 private:
  LocalMemory descriptor_;
  SECURITY_ATTRIBUTES attributes_{};
};

}  // namespace wincni::os::platform
