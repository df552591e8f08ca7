#pragma once
// An EndpointConfig from config text, as the plugin reads stdin.

#include "wincni/cni/config.hpp"
#include "wincni/endpoint/endpoint_config.hpp"

namespace wincni::test {

inline endpoint::EndpointConfig config_of(const char* text) {
  return endpoint::EndpointConfig::parse(cni::NetConf::parse(text));
}

}  // namespace wincni::test
