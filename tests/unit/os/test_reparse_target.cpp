// Where a Windows link or junction leads, from the bytes
// FSCTL_GET_REPARSE_POINT returns: the layouts of MS-FSCC 2.1.2.4 (symbolic
// link) and 2.1.2.5 (mount point), built here byte by byte.

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "platform/reparse_target.hpp"

using wincni::os::platform::parse_reparse_target;
using wincni::os::platform::ReparseTarget;

namespace {

void put_u16(std::string& out, std::uint32_t value) {
  out += static_cast<char>(value & 0xff);
  out += static_cast<char>((value >> 8) & 0xff);
}

void put_u32(std::string& out, std::uint32_t value) {
  put_u16(out, value & 0xffff);
  put_u16(out, value >> 16);
}

std::string utf16le(const std::u16string& text) {
  std::string out;
  for (char16_t c : text) put_u16(out, c);
  return out;
}

// A reparse buffer with the substitute name first and the print name after.
std::string reparse_data(std::uint32_t tag, const std::u16string& substitute, const std::u16string& print,
                         std::uint32_t flags = 0) {
  const bool symlink = tag == 0xA000000C;
  std::string names = utf16le(substitute) + utf16le(print);
  std::string body;
  put_u16(body, 0);                                                  // SubstituteNameOffset
  put_u16(body, static_cast<std::uint32_t>(substitute.size() * 2));  // SubstituteNameLength
  put_u16(body, static_cast<std::uint32_t>(substitute.size() * 2));  // PrintNameOffset
  put_u16(body, static_cast<std::uint32_t>(print.size() * 2));       // PrintNameLength
  if (symlink) put_u32(body, flags);
  body += names;
  std::string out;
  put_u32(out, tag);
  put_u16(out, static_cast<std::uint32_t>(body.size()));
  put_u16(out, 0);
  return out + body;
}

constexpr std::uint32_t kSymlink = 0xA000000C;
constexpr std::uint32_t kMountPoint = 0xA0000003;

}  // namespace

TEST_CASE("a symbolic link's target: absolute in Win32 form, relative as written, UNC and volume forms") {
  ReparseTarget absolute = parse_reparse_target(reparse_data(kSymlink, u"\\??\\C:\\var\\lib", u"C:\\var\\lib"));
  CHECK(absolute.kind == ReparseTarget::Kind::kLink);
  CHECK_FALSE(absolute.relative);
  CHECK(absolute.target == u"C:\\var\\lib");

  ReparseTarget relative = parse_reparse_target(reparse_data(kSymlink, u"..\\real", u"..\\real", 1));
  CHECK(relative.kind == ReparseTarget::Kind::kLink);
  CHECK(relative.relative);
  CHECK(relative.target == u"..\\real");

  ReparseTarget share = parse_reparse_target(reparse_data(kSymlink, u"\\??\\UNC\\srv\\share\\d", u"\\\\srv\\share\\d"));
  CHECK(share.target == u"\\\\srv\\share\\d");
}

TEST_CASE("a junction and a volume mounted at a folder") {
  ReparseTarget junction = parse_reparse_target(reparse_data(kMountPoint, u"\\??\\D:\\state\\", u"D:\\state\\"));
  CHECK(junction.kind == ReparseTarget::Kind::kLink);
  CHECK_FALSE(junction.relative);
  CHECK(junction.target == u"D:\\state\\");

  ReparseTarget volume = parse_reparse_target(reparse_data(kMountPoint, u"\\??\\Volume{0b1c}\\", u""));
  CHECK(volume.kind == ReparseTarget::Kind::kLink);
  CHECK(volume.target == u"\\\\?\\Volume{0b1c}\\");
}

TEST_CASE("a reparse point that names nothing is an ordinary entry; an unknown link or a torn buffer is not followed") {
  // Deduplication (IO_REPARSE_TAG_DEDUP) is no name surrogate.
  CHECK(parse_reparse_target(reparse_data(0x80000013, u"", u"")).kind == ReparseTarget::Kind::kNotALink);
  // WSL's symbolic link (IO_REPARSE_TAG_LX_SYMLINK) is one, of a layout not read here.
  CHECK(parse_reparse_target(reparse_data(0xA000001D, u"x", u"x")).kind == ReparseTarget::Kind::kUnknownLink);
  std::string torn = reparse_data(kSymlink, u"\\??\\C:\\var", u"C:\\var");
  torn.resize(torn.size() - 16);  // into the substitute name
  CHECK(parse_reparse_target(torn).kind == ReparseTarget::Kind::kUnknownLink);
  CHECK(parse_reparse_target(std::string(3, '\0')).kind == ReparseTarget::Kind::kUnknownLink);
  CHECK(parse_reparse_target(reparse_data(kSymlink, u"", u"")).kind == ReparseTarget::Kind::kUnknownLink);
}
