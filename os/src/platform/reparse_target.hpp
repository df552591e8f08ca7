#pragma once
// Where a Windows link or junction leads, read from the reparse data
// FSCTL_GET_REPARSE_POINT returns (the REPARSE_DATA_BUFFER layout of
// Microsoft's "Reparse Point Tags" and MS-FSCC 2.1.2). Byte work only, so
// it is tested on every platform; administrators_only_win32.cpp reads the
// data.

#include <string>
#include <string_view>

namespace wincni::os::platform {

struct ReparseTarget {
  enum class Kind {
    kNotALink,     // a reparse point that names nothing (dedup, cloud files): an ordinary entry
    kLink,         // a symbolic link or a junction (a mount point: maybe a volume's root)
    kUnknownLink,  // a name surrogate of another kind: where it leads is not known here
  };
  Kind kind = Kind::kNotALink;
  // Win32 form: "C:\x", "\\server\share\x", "\\?\Volume{...}\", or, when
  // `relative`, a path from the link's folder ("..\x").
  std::u16string target;
  bool relative = false;
};

// `data`: the bytes FSCTL_GET_REPARSE_POINT returned. A malformed buffer is
// kUnknownLink.
ReparseTarget parse_reparse_target(std::string_view data);

}  // namespace wincni::os::platform
