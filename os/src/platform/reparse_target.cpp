#include "reparse_target.hpp"

#include <cstdint>

namespace wincni::os::platform {

namespace {

constexpr std::uint32_t kTagMountPoint = 0xA0000003;  // IO_REPARSE_TAG_MOUNT_POINT: junctions, volume mounts
constexpr std::uint32_t kTagSymlink = 0xA000000C;     // IO_REPARSE_TAG_SYMLINK
constexpr std::uint32_t kNameSurrogate = 0x20000000;  // IsReparseTagNameSurrogate: the tag names another entry
constexpr std::uint32_t kSymlinkRelative = 1;         // SYMLINK_FLAG_RELATIVE

// ReparseTag (4), ReparseDataLength (2), Reserved (2), then the tag's own
// header: four 16-bit name offsets and lengths, and for a symbolic link a
// 32-bit Flags; the names follow, offsets counted from there.
constexpr std::size_t kCommonHeader = 8;
constexpr std::size_t kNamesHeader = 8;
constexpr std::size_t kSymlinkFlags = 4;

std::uint32_t read_u32(std::string_view data, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i)
    value |= static_cast<std::uint32_t>(static_cast<unsigned char>(data[at + i])) << (8 * i);
  return value;
}

std::uint16_t read_u16(std::string_view data, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(data[at]) |
                                    (static_cast<unsigned char>(data[at + 1]) << 8));
}

// The NT form of a path, "\??\C:\x", in Win32 form.
std::u16string win32_form(std::u16string name) {
  const std::u16string nt_prefix = u"\\??\\";
  if (name.rfind(nt_prefix, 0) != 0) return name;
  name.erase(0, nt_prefix.size());
  if (name.rfind(u"UNC\\", 0) == 0) return u"\\\\" + name.substr(4);
  if (name.rfind(u"Volume{", 0) == 0) return u"\\\\?\\" + name;
  return name;
}

}  // namespace

ReparseTarget parse_reparse_target(std::string_view data) {
  ReparseTarget result;
  if (data.size() < kCommonHeader) {
    result.kind = ReparseTarget::Kind::kUnknownLink;
    return result;
  }
  const std::uint32_t tag = read_u32(data, 0);
  if ((tag & kNameSurrogate) == 0) return result;
  if (tag != kTagMountPoint && tag != kTagSymlink) {
    result.kind = ReparseTarget::Kind::kUnknownLink;
    return result;
  }
  const std::size_t names = kCommonHeader + kNamesHeader + (tag == kTagSymlink ? kSymlinkFlags : 0);
  result.kind = ReparseTarget::Kind::kUnknownLink;  // until the buffer proves whole
  if (data.size() < names) return result;
  const std::size_t offset = read_u16(data, kCommonHeader);
  const std::size_t length = read_u16(data, kCommonHeader + 2);
  if (length % 2 != 0 || names + offset + length > data.size()) return result;
  std::u16string name(length / 2, u'\0');
  for (std::size_t i = 0; i < name.size(); ++i) name[i] = static_cast<char16_t>(read_u16(data, names + offset + 2 * i));
  result.relative = tag == kTagSymlink && (read_u32(data, kCommonHeader + kNamesHeader) & kSymlinkRelative) != 0;
  result.target = result.relative ? name : win32_form(name);
  if (result.target.empty()) return result;
  result.kind = ReparseTarget::Kind::kLink;
  return result;
}

}  // namespace wincni::os::platform
