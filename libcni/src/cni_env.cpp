#include "wincni/cni/cni_env.hpp"

#include <array>
#include <vector>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"

namespace wincni::cni {

namespace {

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool is_name_char(char c) { return is_name_start(c) || c == '_' || c == '.' || c == '-'; }

// Decodes one UTF-8 sequence at `text[i]`; malformed input yields U+FFFD and
// advances one byte, as Go's bytes.Runes does.
char32_t next_code_point(std::string_view text, size_t& i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  size_t length = 0;
  char32_t cp = 0;
  if (lead < 0x80) {
    ++i;
    return lead;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2, cp = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, cp = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, cp = lead & 0x07;
  } else {
    ++i;
    return U'\uFFFD';
  }
  if (i + length > text.size()) {
    ++i;
    return U'\uFFFD';
  }
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) {
      ++i;
      return U'\uFFFD';
    }
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  i += length;
  return cp;
}

// Go's unicode.IsSpace: Latin-1 spaces plus the Unicode White_Space set.
bool is_unicode_space(char32_t cp) {
  switch (cp) {
    case U'\t':
    case U'\n':
    case U'\v':
    case U'\f':
    case U'\r':
    case U' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return cp >= 0x2000 && cp <= 0x200A;
  }
}

struct Requirement {
  std::string_view name;
  std::string CniInvocation::*field;
  std::vector<std::string_view> required_for;
  void (*validate)(std::string_view);

  bool required(std::string_view command) const {
    for (auto c : required_for) {
      if (c == command) return true;
    }
    return false;
  }
};

// Go skel's reqForCmd table at containernetworking/cni HEAD, in its order:
// the order decides which names an error lists first.
const std::array<Requirement, 6>& requirement_table() {
  static const std::array<Requirement, 6> table{{
      {"CNI_COMMAND", &CniInvocation::command, {}, nullptr},
      {"CNI_CONTAINERID", &CniInvocation::container_id, {"ADD", "CHECK", "DEL"}, &validate_container_id},
      {"CNI_NETNS", &CniInvocation::netns, {"ADD", "CHECK"}, nullptr},
      {"CNI_IFNAME", &CniInvocation::ifname, {"ADD", "CHECK", "DEL"}, &validate_interface_name},
      {"CNI_ARGS", &CniInvocation::args, {}, nullptr},
      {"CNI_PATH", &CniInvocation::path, {"ADD", "CHECK", "DEL", "GC", "STATUS"}, nullptr},
  }};
  return table;
}

}  // namespace

bool is_valid_cni_name(std::string_view name) {
  if (name.empty() || !is_name_start(name.front())) return false;
  for (char c : name.substr(1)) {
    if (!is_name_char(c)) return false;
  }
  return true;
}

void validate_container_id(std::string_view id) {
  if (id.empty()) throw Error(kUnknownContainer, "missing containerID");
  if (!is_valid_cni_name(id)) throw Error(kInvalidEnvironment, "invalid characters in containerID", std::string(id));
}

void validate_interface_name(std::string_view ifname) {
  constexpr size_t kMaxLength = 15;  // IFNAMSIZ - 1 on Linux
  if (ifname.empty()) throw Error(kInvalidEnvironment, "interface name is empty");
  if (ifname.size() > kMaxLength) {
    throw Error(kInvalidEnvironment, "interface name is too long",
                fmt::format("interface name should be less than {} characters", kMaxLength + 1));
  }
  if (ifname == "." || ifname == "..") throw Error(kInvalidEnvironment, "interface name is . or ..");
  for (size_t i = 0; i < ifname.size();) {
    const char32_t cp = next_code_point(ifname, i);
    if (cp == U'/' || cp == U':' || is_unicode_space(cp)) {
      throw Error(kInvalidEnvironment, "interface name contains / or : or whitespace characters");
    }
  }
}

CniInvocation read_cni_invocation(const Environment& env) {
  CniInvocation invocation;
  invocation.command = env.get_or("CNI_COMMAND", "");
  std::vector<std::string_view> missing;
  for (const Requirement& var : requirement_table()) {
    std::string& value = invocation.*var.field;
    value = env.get_or(var.name, "");
    const bool required = var.name == "CNI_COMMAND" || var.required(invocation.command);
    if (value.empty()) {
      if (required) missing.push_back(var.name);
    } else if (required && var.validate != nullptr) {
      var.validate(value);
    }
  }
  if (!missing.empty()) {
    throw Error(kInvalidEnvironment, fmt::format("required env variables [{}] missing", fmt::join(missing, ",")));
  }
  return invocation;
}

}  // namespace wincni::cni
