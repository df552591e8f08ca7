#include "wincni/cni/executable_section.hpp"

#include <algorithm>

namespace wincni::cni {
namespace {

// Little-endian fields of a header read into memory; 0 past its end, which
// the callers' own checks then refuse.
std::uint64_t field(std::string_view bytes, std::size_t at, std::size_t width) {
  if (at > bytes.size() || width > bytes.size() - at) return 0;
  std::uint64_t value = 0;
  for (std::size_t i = width; i-- > 0;) value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

// A section table bigger than this is not one of ours (ours have about 40
// sections): refused rather than read.
constexpr std::size_t kMaxSections = 512;
constexpr std::size_t kMaxNameTable = 64 * 1024;

std::optional<std::string> read_exactly(const FileBytes& file, std::uint64_t offset, std::size_t length) {
  std::string bytes = file(offset, length);
  if (bytes.size() != length) return std::nullopt;
  return bytes;
}

// ELF64: the section header table (e_shoff, e_shentsize, e_shnum) and the
// section that names the others (e_shstrndx).
std::optional<std::string> elf64_section(const FileBytes& file, std::string_view header, std::string_view name,
                                         std::size_t max_length) {
  const std::uint64_t table = field(header, 0x28, 8);
  const std::size_t entry_size = field(header, 0x3A, 2);
  const std::size_t count = field(header, 0x3C, 2);
  const std::size_t names_index = field(header, 0x3E, 2);
  // ELF64's section header is 64 bytes; another size is no file of ours,
  // and a larger one would multiply what is read.
  constexpr std::size_t kEntrySize = 64;
  if (table == 0 || entry_size != kEntrySize || count == 0 || count > kMaxSections || names_index >= count) {
    return std::nullopt;
  }
  const auto entries = read_exactly(file, table, entry_size * count);
  if (!entries) return std::nullopt;
  const auto entry = [&](std::size_t index) { return std::string_view(*entries).substr(index * kEntrySize, kEntrySize); };
  const std::string_view names_entry = entry(names_index);
  const std::uint64_t names_size = field(names_entry, 32, 8);
  if (names_size == 0 || names_size > kMaxNameTable) return std::nullopt;
  const auto names = read_exactly(file, field(names_entry, 24, 8), static_cast<std::size_t>(names_size));
  if (!names) return std::nullopt;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string_view section = entry(i);
    const std::uint64_t name_at = field(section, 0, 4);
    if (name_at >= names->size()) continue;
    const std::string_view rest = std::string_view(*names).substr(static_cast<std::size_t>(name_at));
    if (rest.substr(0, rest.find('\0')) != name) continue;
    constexpr std::uint32_t kNoBits = 8;  // SHT_NOBITS: no bytes in the file
    if (field(section, 4, 4) == kNoBits) return std::nullopt;
    const std::uint64_t size = field(section, 32, 8);
    if (size > max_length) return std::nullopt;
    return read_exactly(file, field(section, 24, 8), static_cast<std::size_t>(size));
  }
  return std::nullopt;
}

// PE: the COFF header after "PE\0\0" at e_lfanew, then the section table
// after the optional header. Names longer than eight characters point into
// the COFF string table, which images need not keep: ours is shorter.
std::optional<std::string> pe_section(const FileBytes& file, std::string_view dos_header, std::string_view name,
                                      std::size_t max_length) {
  if (name.size() > 8) return std::nullopt;
  const std::uint64_t pe_at = field(dos_header, 0x3C, 4);
  const auto coff = read_exactly(file, pe_at, 24);
  if (!coff || coff->substr(0, 4) != std::string_view("PE\0\0", 4)) return std::nullopt;
  const std::size_t count = field(*coff, 6, 2);
  const std::size_t optional_size = field(*coff, 20, 2);
  constexpr std::size_t kEntrySize = 40;
  if (count == 0 || count > kMaxSections) return std::nullopt;
  const auto entries = read_exactly(file, pe_at + 24 + optional_size, kEntrySize * count);
  if (!entries) return std::nullopt;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string_view section = std::string_view(*entries).substr(i * kEntrySize, kEntrySize);
    const std::string_view raw_name = section.substr(0, 8);
    if (raw_name.substr(0, raw_name.find('\0')) != name) continue;
    const std::uint64_t in_memory = field(section, 8, 4);
    const std::uint64_t in_file = field(section, 16, 4);
    // The raw data is padded to the file alignment; the virtual size is
    // what the section holds, when the linker gave one.
    const std::uint64_t size = in_memory != 0 ? std::min(in_memory, in_file) : in_file;
    if (size > max_length) return std::nullopt;
    return read_exactly(file, field(section, 20, 4), static_cast<std::size_t>(size));
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> read_executable_section(const FileBytes& file, std::string_view name,
                                                   std::size_t max_length) {
  const std::string header = file(0, 64);
  if (header.size() < 64) return std::nullopt;
  if (header.starts_with("\x7f"
                         "ELF")) {
    constexpr char kClass64 = 2, kLittleEndian = 1;
    if (header[4] != kClass64 || header[5] != kLittleEndian) return std::nullopt;
    return elf64_section(file, header, name, max_length);
  }
  if (header.starts_with("MZ")) return pe_section(file, header, name, max_length);
  return std::nullopt;
}

}  // namespace wincni::cni
