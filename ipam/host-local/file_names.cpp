#include "file_names.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"

namespace wincni::hostlocal {

namespace {

std::string replace_all(std::string text, char from, char to) {
  std::replace(text.begin(), text.end(), from, to);
  return text;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// CON, NUL, COM1 ... open devices on Windows whatever follows the dot.
bool is_windows_device_name(std::string_view name) {
  const std::string_view stem = name.substr(0, name.find('.'));
  static constexpr std::array<std::string_view, 4> kPlain = {"CON", "PRN", "AUX", "NUL"};
  for (auto device : kPlain) {
    if (iequals(stem, device)) return true;
  }
  if (stem.size() == 4 && (iequals(stem.substr(0, 3), "COM") || iequals(stem.substr(0, 3), "LPT")) && stem[3] >= '0' &&
      stem[3] <= '9') {
    return true;
  }
  return false;
}

}  // namespace

std::string ip_file_name(const cni::IpAddress& ip, bool escape_colons) {
  return escape_colons ? replace_all(ip.str(), ':', '_') : ip.str();
}

std::optional<cni::IpAddress> ip_from_file_name(std::string_view name, bool escape_colons) {
  const std::string text = escape_colons ? replace_all(std::string(name), '_', ':') : std::string(name);
  auto ip = cni::IpAddress::parse(text);
  if (!ip || ip->str() != text) return std::nullopt;
  return ip;
}

std::string last_reserved_file_name(std::string_view range_id) { return fmt::format("last_reserved_ip.{}", range_id); }

void check_network_name(std::string_view name) {
  const bool escapes = name.empty() || name == "." || name == ".." ||
                       name.find_first_of(std::string_view("/\\:\0", 4)) != std::string_view::npos;
  if (escapes || is_windows_device_name(name)) {
    throw cni::Error(cni::kInvalidNetworkConfig,
                     fmt::format("invalid network name \"{}\": it must name a directory inside dataDir", name));
  }
}

}  // namespace wincni::hostlocal
