// Which plugin of which build a file is, read from its ".wincni" section
// through ELF and PE headers: the real binaries of this build, copies of
// them made into another build, and headers made up to mislead.

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "scratch_dir.hpp"
#include "wincni/cni/executable_section.hpp"
#include "wincni/cni/plugin_identity.hpp"

using namespace wincni::cni;
using wincni::test::ScratchDir;

namespace {

// Little-endian fields written into a byte string at an offset, growing it.
void put(std::string& bytes, std::size_t at, std::uint64_t value, std::size_t width) {
  if (bytes.size() < at + width) bytes.resize(at + width, '\0');
  for (std::size_t i = 0; i < width; ++i) bytes[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}

void put_text(std::string& bytes, std::size_t at, std::string_view text) {
  if (bytes.size() < at + text.size()) bytes.resize(at + text.size(), '\0');
  bytes.replace(at, text.size(), text);
}

FileBytes reader(const std::string& bytes) {
  return [&bytes](std::uint64_t offset, std::size_t length) {
    return offset >= bytes.size() ? std::string() : bytes.substr(static_cast<std::size_t>(offset), length);
  };
}

// An ELF64 file with sections "" (null), .shstrtab and `name` holding `content`.
std::string elf_with(std::string_view name, std::string_view content) {
  std::string file;
  put_text(file, 0,
           "\x7f"
           "ELF");
  file.resize(64, '\0');
  file[4] = 2;  // 64-bit
  file[5] = 1;  // little-endian
  const std::string names = std::string("\0.shstrtab\0", 11) + std::string(name) + '\0';
  const std::size_t names_at = 64, content_at = names_at + names.size(), table_at = 256;
  put_text(file, names_at, names);
  put_text(file, content_at, content);
  put(file, 0x28, table_at, 8);
  put(file, 0x3A, 64, 2);
  put(file, 0x3C, 3, 2);
  put(file, 0x3E, 1, 2);
  file.resize(table_at + 3 * 64, '\0');
  const std::size_t names_entry = table_at + 64, section_entry = table_at + 128;
  put(file, names_entry + 0, 1, 4);
  put(file, names_entry + 4, 3, 4);  // SHT_STRTAB
  put(file, names_entry + 24, names_at, 8);
  put(file, names_entry + 32, names.size(), 8);
  put(file, section_entry + 0, 11, 4);
  put(file, section_entry + 4, 1, 4);  // SHT_PROGBITS
  put(file, section_entry + 24, content_at, 8);
  put(file, section_entry + 32, content.size(), 8);
  return file;
}

// A PE file with one section `name` holding `content`, its raw data padded
// to 512 bytes as linkers pad it.
std::string pe_with(std::string_view name, std::string_view content) {
  std::string file;
  put_text(file, 0, "MZ");
  const std::size_t pe_at = 128, optional_size = 240;
  put(file, 0x3C, pe_at, 4);
  put_text(file, pe_at, std::string_view("PE\0\0", 4));
  put(file, pe_at + 4, 0x8664, 2);
  put(file, pe_at + 6, 1, 2);
  put(file, pe_at + 20, optional_size, 2);
  const std::size_t entry = pe_at + 24 + optional_size, raw_at = 1024;
  put_text(file, entry, name);
  put(file, entry + 8, content.size(), 4);
  put(file, entry + 16, 512, 4);
  put(file, entry + 20, raw_at, 4);
  file.resize(raw_at + 512, '\0');
  put_text(file, raw_at, content);
  return file;
}

const std::string kIdentity = "wincni-plugin\nhost-local\n" + std::string(build_fingerprint()) + "\n";

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

// The binaries of this build, named by the suite's environment.
std::string built(const char* variable) {
  const char* path = std::getenv(variable);
  REQUIRE_MESSAGE(path != nullptr, variable << " is not set");
  return path;
}

}  // namespace

TEST_CASE("identity text: program and fingerprint, zero padding, nothing else") {
  const auto identity = parse_plugin_identity(kIdentity + std::string(7, '\0'));
  REQUIRE(identity);
  CHECK(identity->program == "host-local");
  CHECK(identity->fingerprint == build_fingerprint());
  CHECK_FALSE(parse_plugin_identity(""));
  // The tag alone, padded (the fuzzer's find: its newline read as the last).
  CHECK_FALSE(parse_plugin_identity(std::string("wincni-plugin\n\0\0\0\0\0", 19)));
  CHECK_FALSE(parse_plugin_identity("wincni-plugin\n"));
  CHECK_FALSE(parse_plugin_identity(kIdentity + std::string(1, '\0') + "x"));
  CHECK_FALSE(parse_plugin_identity("wincni-plugin\nhost-local\n"));
  CHECK_FALSE(parse_plugin_identity("wincni-plugin\nHost Local\nabc\n"));
  CHECK_FALSE(parse_plugin_identity("wincni-plugin\n../x\nabc\n"));
  CHECK_FALSE(parse_plugin_identity("wincni-plugin\nhost-local\nabc\nextra\n"));
  CHECK_FALSE(parse_plugin_identity("other\nhost-local\nabc\n"));
  CHECK(build_fingerprint().size() == 32);
}

TEST_CASE("sections found through ELF64 and PE headers") {
  const std::string elf = elf_with(".wincni", kIdentity);
  CHECK(read_executable_section(reader(elf), ".wincni", 4096) == kIdentity);
  CHECK_FALSE(read_executable_section(reader(elf), ".other", 4096));
  CHECK_FALSE(read_executable_section(reader(elf), ".wincni", 10));  // bigger than asked for
  const std::string pe = pe_with(".wincni", kIdentity);
  CHECK(read_executable_section(reader(pe), ".wincni", 4096) == kIdentity);
  CHECK_FALSE(read_executable_section(reader(pe), ".wincn", 4096));
  CHECK_FALSE(read_executable_section(reader(pe), ".wincni-long", 4096));
}

TEST_CASE("headers that lie are refused, never followed far") {
  CHECK_FALSE(read_executable_section(reader(""), ".wincni", 4096));
  CHECK_FALSE(read_executable_section(reader("#!/bin/sh\necho hi\n" + std::string(100, ' ')), ".wincni", 4096));
  std::string elf = elf_with(".wincni", kIdentity);
  SUBCASE("32-bit or big-endian ELF") {
    elf[4] = 1;
    CHECK_FALSE(read_executable_section(reader(elf), ".wincni", 4096));
    elf[4] = 2;
    elf[5] = 2;
    CHECK_FALSE(read_executable_section(reader(elf), ".wincni", 4096));
  }
  SUBCASE("a section table past the end") {
    put(elf, 0x28, 1u << 30, 8);
    CHECK_FALSE(read_executable_section(reader(elf), ".wincni", 4096));
  }
  SUBCASE("section entries of 65535 bytes") {
    put(elf, 0x3A, 0xffff, 2);
    CHECK_FALSE(read_executable_section(reader(elf), ".wincni", 4096));
  }
  SUBCASE("sixty thousand sections") {
    put(elf, 0x3C, 60000, 2);
    CHECK_FALSE(read_executable_section(reader(elf), ".wincni", 4096));
  }
  SUBCASE("a name table of four gigabytes") {
    put(elf, 256 + 64 + 32, 0xffffffffull, 8);
    CHECK_FALSE(read_executable_section(reader(elf), ".wincni", 4096));
  }
  SUBCASE("a section's name past its table, a section past the file") {
    put(elf, 256 + 128, 5000, 4);
    CHECK_FALSE(read_executable_section(reader(elf), ".wincni", 4096));
    elf = elf_with(".wincni", kIdentity);
    put(elf, 256 + 128 + 24, 1u << 20, 8);
    CHECK_FALSE(read_executable_section(reader(elf), ".wincni", 4096));
  }
  SUBCASE("a truncated file") {
    CHECK_FALSE(read_executable_section(reader(elf.substr(0, 300)), ".wincni", 4096));
    const std::string pe = pe_with(".wincni", kIdentity);
    CHECK_FALSE(read_executable_section(reader(pe.substr(0, 200)), ".wincni", 4096));
    CHECK_FALSE(read_executable_section(reader(pe.substr(0, 1030)), ".wincni", 4096));
  }
  SUBCASE("PE: no signature, its offset past the end") {
    std::string pe = pe_with(".wincni", kIdentity);
    pe[128] = 'X';
    CHECK_FALSE(read_executable_section(reader(pe), ".wincni", 4096));
    pe = pe_with(".wincni", kIdentity);
    put(pe, 0x3C, 0xfffffff0u, 4);
    CHECK_FALSE(read_executable_section(reader(pe), ".wincni", 4096));
  }
}

TEST_CASE("this build's binaries say which plugin they are; another build's and others' files do not pass") {
  const std::string host_local = built("WINCNI_HOST_LOCAL");
  const auto identity = plugin_identity_of(host_local);
  REQUIRE(identity);
  CHECK(identity->program == "host-local");
  CHECK(same_build_program(host_local) == "host-local");
  CHECK(same_build_program(built("WINCNI_WIN_BRIDGE")) == "win-bridge");
  CHECK(same_build_program(built("WINCNI_FLANNEL")) == "flannel");

  ScratchDir dir;
  // The same plugin of another build: its fingerprint differs.
  std::string bytes = file_bytes(host_local);
  // The identity's own copy of the fingerprint; the one build_fingerprint()
  // returns is elsewhere in the file.
  const std::size_t found = bytes.find(kIdentity);
  REQUIRE(found != std::string::npos);
  const std::size_t at = found + kIdentity.size() - 2;
  bytes[at] = bytes[at] == '0' ? '1' : '0';
  const std::string other_build = write_file(dir.path() / "host-local-other", bytes);
  REQUIRE(plugin_identity_of(other_build));
  CHECK_FALSE(same_build_program(other_build));
  // A script, an empty file, a folder, a missing file.
  CHECK_FALSE(plugin_identity_of(write_file(dir.path() / "script", "#!/bin/sh\nexit 0\n")));
  CHECK_FALSE(plugin_identity_of(write_file(dir.path() / "empty", "")));
  CHECK_FALSE(plugin_identity_of(dir.path().string()));
  CHECK_FALSE(plugin_identity_of((dir.path() / "missing").string()));
  // The identity's text elsewhere in a file does not make it ours.
  CHECK_FALSE(plugin_identity_of(write_file(dir.path() / "quoted", std::string(4096, 'x') + kIdentity)));
}
