#pragma once
// A config value host-local cannot use: error 7, in the reference's words
// where it has any (its callers word the message).

#include <string>
#include <utility>

#include "wincni/cni/error.hpp"

namespace wincni::hostlocal {

inline cni::Error invalid_config(std::string msg) { return cni::Error(cni::kInvalidNetworkConfig, std::move(msg)); }

}  // namespace wincni::hostlocal
