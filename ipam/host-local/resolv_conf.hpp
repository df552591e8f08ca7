#pragma once
// ipam.resolvConf: a resolv.conf whose nameserver, domain, search and options
// lines become the result's DNS, read the way the reference reads it.

#include <string>
#include <string_view>

#include "wincni/cni/result.hpp"

namespace wincni::hostlocal {

cni::Dns parse_resolv_conf(std::string_view text);
// Throws cni::Error(kIoFailure) when the file cannot be read.
cni::Dns read_resolv_conf(const std::string& path);

}  // namespace wincni::hostlocal
