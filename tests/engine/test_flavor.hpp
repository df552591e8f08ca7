#pragma once
// The smallest flavor: it works on L2Bridge networks, creates them when the
// config says how, and leaves every other rule to the engine's defaults.

#include "wincni/engine/flavor.hpp"

namespace wincni::test {

class TestFlavor final : public engine::EndpointFlavor {
 public:
  std::string_view plugin_name() const override { return "test-flavor"; }
  std::string_view description() const override { return "the engine with its default rules"; }
  bool accepts(hns::NetworkType type) const override { return type == hns::NetworkType::L2Bridge; }
  std::string accepted_types() const override { return "L2Bridge"; }
  std::optional<hns::NetworkType> type_to_create(const engine::EndpointConfig&) const override {
    return hns::NetworkType::L2Bridge;
  }
};

// A flavor that never creates its network (as win-overlay leaves that to
// flanneld): a config naming "master" and a subnet changes nothing.
class WaitingFlavor final : public engine::EndpointFlavor {
 public:
  std::string_view plugin_name() const override { return "waiting-flavor"; }
  std::string_view description() const override { return "the engine, on networks someone else creates"; }
  bool accepts(hns::NetworkType type) const override { return type == hns::NetworkType::L2Bridge; }
  std::string accepted_types() const override { return "L2Bridge"; }
  std::string network_creator() const override { return "flanneld"; }
};

}  // namespace wincni::test
