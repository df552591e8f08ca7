#pragma once
// Which build a binary is: the suite's version and the commit it was built
// from, the same in every binary of one build, so that an operator can tell
// what a node runs (`<binary> --version`) and a release can be checked to be
// one build.

#include <string>
#include <string_view>

namespace wincni::cni {

// The project's version (meson.build).
std::string_view suite_version();
// `git describe --always --dirty --abbrev=12` of the source tree at build
// time; "unknown" when it was not built from a git checkout.
std::string_view build_commit();
// "<program> (wincni <version>, commit <commit>)".
std::string version_line(std::string_view program);

// What every binary of the suite holds, as the start of its version line's
// parenthesis: how the installer tells a wincni build from another
// project's plugin of the same name (the reference flannel.exe it
// replaces) without running either.
inline constexpr std::string_view kBuildMarker = "(wincni ";
bool is_wincni_build(std::string_view binary_content);

}  // namespace wincni::cni
