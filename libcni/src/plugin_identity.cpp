#include "wincni/cni/plugin_identity.hpp"

#include "wincni/cni/executable_section.hpp"
#include "wincni/os/read_only_file.hpp"

namespace wincni::cni {
namespace {

constexpr std::string_view kIdentityTag = "wincni-plugin\n";
// A program name and a fingerprint fit many times over.
constexpr std::size_t kMaxIdentitySection = 4096;

bool is_program_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

bool is_fingerprint(std::string_view text) {
  return text.size() == 32 && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

std::string_view build_fingerprint() { return WINCNI_BUILD_FINGERPRINT; }

std::optional<PluginIdentity> parse_plugin_identity(std::string_view section) {
  // The linker pads a section; only zeros may follow the text.
  const std::size_t end = section.find('\0');
  if (end != std::string_view::npos) {
    if (section.find_first_not_of('\0', end) != std::string_view::npos) return std::nullopt;
    section = section.substr(0, end);
  }
  // The tag's own newline cannot be the closing one too.
  if (section.size() <= kIdentityTag.size() || !section.starts_with(kIdentityTag) || !section.ends_with('\n')) {
    return std::nullopt;
  }
  section.remove_prefix(kIdentityTag.size());
  section.remove_suffix(1);
  const std::size_t split = section.find('\n');
  if (split == std::string_view::npos) return std::nullopt;
  PluginIdentity identity{std::string(section.substr(0, split)), std::string(section.substr(split + 1))};
  if (!is_program_name(identity.program) || identity.fingerprint.empty() ||
      identity.fingerprint.find('\n') != std::string::npos) {
    return std::nullopt;
  }
  return identity;
}

std::optional<PluginIdentity> plugin_identity_of(const std::string& path) {
  try {
    const auto file = os::ReadOnlyFile::open(path);
    if (!file) return std::nullopt;
    const auto section = read_executable_section(
        [&file](std::uint64_t offset, std::size_t length) { return file->read_at(offset, length); }, kIdentitySection,
        kMaxIdentitySection);
    if (!section) return std::nullopt;
    return parse_plugin_identity(*section);
  } catch (const std::exception&) {  // a path Windows cannot take, memory
    return std::nullopt;
  }
}

std::optional<std::string> same_build_program(const std::string& path) {
  // A build whose fingerprint could not be computed ("unknown") shares it
  // with every other such build: none of them is known to be this one.
  if (!is_fingerprint(build_fingerprint())) return std::nullopt;
  auto identity = plugin_identity_of(path);
  if (!identity || identity->fingerprint != build_fingerprint()) return std::nullopt;
  return std::move(identity->program);
}

}  // namespace wincni::cni
