#pragma once
// An EndpointConfig from config text, as the plugin reads stdin.

#include "wincni/cni/config.hpp"
#include "config/endpoint_config.hpp"

namespace wincni::test {

inline engine::EndpointConfig config_of(const char* text) {
  return engine::read_endpoint_config(cni::NetConf::parse(text));
}

}  // namespace wincni::test
