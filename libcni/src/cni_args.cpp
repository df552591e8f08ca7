#include "wincni/cni/cni_args.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"
#include "wincni/cni/version.hpp"

namespace wincni::cni {

namespace {

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; });
  return out;
}

bool parse_go_bool(std::string_view pair, std::string_view value) {
  const std::string lower = ascii_lower(value);
  if (lower == "1" || lower == "true") return true;
  if (lower == "0" || lower == "false") return false;
  throw Error(kInvalidEnvironment,
              fmt::format("CNI_ARGS: error parsing value of pair \"{}\": boolean unmarshal error: invalid input {}",
                          pair, lower));
}

}  // namespace

const std::vector<std::string_view>& standard_cni_arg_keys() {
  static const std::vector<std::string_view> keys{cni_arg_keys::kIp, cni_arg_keys::kPodNamespace,
                                                  cni_arg_keys::kPodName, cni_arg_keys::kPodInfraContainerId,
                                                  cni_arg_keys::kPodUid};
  return keys;
}

CniArgs CniArgs::parse(std::string_view text) { return parse(text, standard_cni_arg_keys()); }

CniArgs CniArgs::parse(std::string_view text, const std::vector<std::string_view>& known_keys) {
  CniArgs args;
  if (text.empty()) return args;
  std::vector<std::string> unknown;
  for (size_t start = 0;;) {
    const size_t semicolon = text.find(';', start);
    const std::string_view pair =
        text.substr(start, semicolon == std::string_view::npos ? std::string_view::npos : semicolon - start);
    const size_t eq = pair.find('=');
    if (eq == std::string_view::npos || eq == 0 || pair.find('=', eq + 1) != std::string_view::npos) {
      throw Error(kInvalidEnvironment, fmt::format("CNI_ARGS: invalid pair \"{}\"", pair));
    }
    const std::string_view key = pair.substr(0, eq);
    const std::string_view value = pair.substr(eq + 1);
    if (key == cni_arg_keys::kIgnoreUnknown) {
      args.ignore_unknown_ = parse_go_bool(pair, value);
    } else if (std::find(known_keys.begin(), known_keys.end(), key) == known_keys.end()) {
      unknown.emplace_back(pair);
    }
    args.pairs_.insert_or_assign(std::string(key), std::string(value));
    if (semicolon == std::string_view::npos) break;
    start = semicolon + 1;
  }
  // Decided after every pair is read: IgnoreUnknown may come last.
  if (!unknown.empty() && !args.ignore_unknown_) {
    throw Error(kInvalidEnvironment, fmt::format("CNI_ARGS: unknown args {}", go_quoted_list(unknown)));
  }
  return args;
}

std::optional<std::string> CniArgs::get(std::string_view key) const {
  if (auto it = pairs_.find(key); it != pairs_.end()) return it->second;
  return std::nullopt;
}

std::optional<IpAddress> CniArgs::ip() const {
  const std::optional<std::string> text = get(cni_arg_keys::kIp);
  if (!text) return std::nullopt;
  std::optional<IpAddress> address = IpAddress::parse(*text);
  if (!address) throw Error(kInvalidEnvironment, fmt::format("CNI_ARGS: invalid IP address \"{}\"", *text));
  return address;
}

}  // namespace wincni::cni
