// Any file's bytes as an executable whose identity section is looked for:
// headers that claim tables past the end, sizes of gigabytes, counts in the
// tens of thousands. Nothing may be read past what the bounds allow, and a
// section found must be no longer than asked for.

#include <cstdlib>

#include "fuzz_input.hpp"
#include "wincni/cni/executable_section.hpp"
#include "wincni/cni/plugin_identity.hpp"

using namespace wincni;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = fuzz::text(data, size);
  std::size_t read = 0;
  const cni::FileBytes file = [&](std::uint64_t offset, std::size_t length) {
    read += length;
    return offset >= bytes.size() ? std::string() : std::string(bytes.substr(static_cast<std::size_t>(offset), length));
  };
  constexpr std::size_t kMax = 4096;
  for (const char* name : {".wincni", ".text", ""}) {
    read = 0;
    const auto section = cni::read_executable_section(file, name, kMax);
    if (section && section->size() > kMax) std::abort();
    // The bounds: a header, 512 section entries of 64 bytes, 64 KiB of
    // names and the section itself.
    if (read > 64 + 512 * 64 + 64 * 1024 + kMax + 64) std::abort();
    if (section) cni::parse_plugin_identity(*section);
  }
  cni::parse_plugin_identity(bytes);
  return 0;
}
