#include "wincni/cni/version.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wincni/cni/error.hpp"

namespace wincni::cni {

namespace {

// Go's strconv.Quote for the characters a version string can plausibly hold;
// bytes above 0x7f pass through (Go keeps printable UTF-8 as is).
std::string go_quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

// strconv.Atoi's grammar and range: an optional sign, then decimal digits,
// within Go's 64-bit int. Its messages carry the "strconv.Atoi: " prefix.
int64_t parse_version_part(std::string_view part, std::string_view which) {
  auto fail = [&](std::string_view why) {
    return Error(kDecodingFailure, fmt::format("failed to convert {} version part {}: strconv.Atoi: parsing {}: {}",
                                               which, go_quote(part), go_quote(part), why));
  };
  std::string_view digits = part;
  if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) digits.remove_prefix(1);
  const bool all_digits =
      !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!all_digits) throw fail("invalid syntax");
  // from_chars takes a '-' but not a '+'.
  const std::string_view number = part.front() == '+' ? digits : part;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc() || end != number.data() + number.size()) throw fail("value out of range");
  return value;
}

}  // namespace

const std::vector<std::string>& known_versions() {
  static const std::vector<std::string> versions{"0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"};
  return versions;
}

bool is_known_version(std::string_view version) {
  const auto& all = known_versions();
  return std::find(all.begin(), all.end(), version) != all.end();
}

SpecVersion parse_version(std::string_view text) {
  if (text.empty()) return SpecVersion{0, 1, 0};
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t dot = text.find('.', start);
    parts.push_back(text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (parts.size() >= 4) {
    throw Error(kDecodingFailure, fmt::format("invalid version {}: too many parts", go_quote(text)));
  }
  SpecVersion version;
  version.major = parse_version_part(parts[0], "major");
  if (parts.size() >= 2) version.minor = parse_version_part(parts[1], "minor");
  if (parts.size() >= 3) version.patch = parse_version_part(parts[2], "micro");
  return version;
}

bool version_at_least(std::string_view version, std::string_view minimum) {
  return parse_version(version) >= parse_version(minimum);
}

void reconcile_version(std::string_view config_version, const std::vector<std::string>& supported) {
  if (std::find(supported.begin(), supported.end(), config_version) != supported.end()) return;
  throw Error(kIncompatibleVersion, "incompatible CNI versions",
              fmt::format("config is {}, plugin supports {}", go_quote(config_version), go_quoted_list(supported)));
}

std::string encode_version_info(const std::vector<std::string>& supported) {
  nlohmann::ordered_json info;
  info["cniVersion"] = kCurrentVersion;
  info["supportedVersions"] = supported;
  return info.dump() + "\n";
}

std::string go_quoted_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ' ';
    out += go_quote(items[i]);
  }
  out += ']';
  return out;
}

}  // namespace wincni::cni
