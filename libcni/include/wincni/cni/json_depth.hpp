#pragma once
// How deep JSON text nests, measured before it is parsed. nlohmann parses
// iteratively, but copying or dumping a document recurses, some 200 bytes of
// stack a level: text nested a million levels deep would end the process
// with a stack overflow instead of an error. Go's decoder stops at 10000
// levels; wincni stops at 1000, which keeps the worst case well inside a
// Windows main thread's 2 MB and is far beyond any real config or HNS object.

#include <optional>
#include <string_view>

namespace wincni::cni {

inline constexpr int kMaxJsonNesting = 1000;

// The '[' or '{' (outside strings) that opens a level deeper than
// kMaxJsonNesting; nullopt when the text stays within it. The text need not
// be valid JSON.
std::optional<char> too_deeply_nested(std::string_view text);

}  // namespace wincni::cni
