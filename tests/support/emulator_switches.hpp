#pragma once
// The emulator's switches (docs/reference/emulator-fidelity.md) that a test
// suite is run under: meson sets them on the test program, and every
// program the suite starts on its node gets them too, so that the plugins'
// HNS makes the same choices as the one the test reads.

#include <array>

namespace wincni::test {

inline constexpr std::array<const char*, 11> kEmulatorSwitches{
    "WINCNI_EMULATOR_PREFIX_HOST_BITS",  "WINCNI_EMULATOR_ERROR_TEXTS",    "WINCNI_EMULATOR_HNS_PICKS",
    "WINCNI_EMULATOR_DUPLICATE_CODE",    "WINCNI_EMULATOR_FILTER_KEYS",    "WINCNI_EMULATOR_NAMESPACE_DELETE",
    "WINCNI_EMULATOR_DEFAULT_NAMESPACE", "WINCNI_EMULATOR_ATTACHED_STATE", "WINCNI_EMULATOR_ENCAP_OVERHEAD",
    "WINCNI_EMULATOR_V1_POSTED_ID",      "WINCNI_EMULATOR_V1_FAILURES",
};

// Whether delegates of this build run in process (carried_plugins.hpp): a
// suite run with it "0" runs every case with the process path.
inline constexpr const char* kDelegationSwitch = "WINCNI_DELEGATE_IN_PROCESS";

// How a sanitized build's processes report and what they check
// (docs/fuzzing.md): every program a suite starts runs under the same
// settings as the suite itself.
inline constexpr std::array<const char*, 3> kSanitizerSettings{"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"};

}  // namespace wincni::test
