#pragma once
// The bytes of one named section of an executable, found through its headers
// alone: ELF64 little-endian (Linux x86-64) and PE (Windows, 32 and 64 bit).
// A few small reads wherever the file is large, so that deciding something
// from a section costs less than starting the file would
// (docs/reference/executable-sections.md: where each format keeps its section
// table and names).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace wincni::cni {

// Up to `length` bytes of the file at `offset`; fewer at its end.
using FileBytes = std::function<std::string(std::uint64_t offset, std::size_t length)>;

// The section's bytes, at most `max_length` of them (its size in the file,
// the padding of a PE section's raw data left out), or nullopt when the file
// is no executable of those formats, has no such section, or its headers are
// inconsistent. Never reads more than a bounded amount, whatever the headers
// claim: the file may be anybody's.
std::optional<std::string> read_executable_section(const FileBytes& file, std::string_view name,
                                                   std::size_t max_length);

}  // namespace wincni::cni
