#pragma once
// A time limit an operator (or a test) sets in the environment, e.g.
// WINCNI_HNS_TIMEOUT_MS=250: a positive whole number of milliseconds.

#include <chrono>
#include <optional>
#include <string_view>

namespace wincni::cni {

// nullopt when `text` is not a positive whole number (the setting is then
// ignored, and the default stands).
std::optional<std::chrono::milliseconds> milliseconds_setting(std::string_view text);

}  // namespace wincni::cni
