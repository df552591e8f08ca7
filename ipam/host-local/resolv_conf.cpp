#include "resolv_conf.hpp"

#include <fmt/format.h>

#include "go_strings.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::hostlocal {

cni::Dns parse_resolv_conf(std::string_view text) {
  cni::Dns dns;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    const std::string_view line = trim_space(text.substr(0, newline));
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    const auto words = split_fields(line);
    if (words.size() < 2) continue;
    if (words[0] == "nameserver") {
      dns.nameservers.push_back(words[1]);
    } else if (words[0] == "domain") {
      dns.domain = words[1];
    } else if (words[0] == "search") {
      dns.search.insert(dns.search.end(), words.begin() + 1, words.end());
    } else if (words[0] == "options") {
      dns.options.insert(dns.options.end(), words.begin() + 1, words.end());
    }
  }
  return dns;
}

cni::Dns read_resolv_conf(const std::string& path) {
  const auto text = os::private_files::read_file(path);
  if (!text) throw cni::Error(cni::kIoFailure, fmt::format("open {}: no such file or directory", path));
  return parse_resolv_conf(*text);
}

}  // namespace wincni::hostlocal
