#pragma once
// Which Windows this is, to the update: "10.0.20348.2582" is Server 2022
// with July 2024's update. Some updates broke pod networking (hnsctl caps
// names them), so the revision matters as much as the build.

#include <optional>
#include <string>

namespace wincni::os {

struct WindowsBuild {
  unsigned major = 0;
  unsigned minor = 0;
  unsigned build = 0;
  unsigned revision = 0;  // the update build revision (UBR); 0 when the host does not say

  std::string str() const;
  // "10.0.20348.2582" (the revision may be left out); nullopt for anything else.
  static std::optional<WindowsBuild> parse(const std::string& text);
};

// nullopt on a system that is not Windows.
std::optional<WindowsBuild> windows_build();

}  // namespace wincni::os
