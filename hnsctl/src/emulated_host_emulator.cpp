// Linux: the backend is the HNS emulator, whose host hnsctl can set up.

#include "emulated_host.hpp"
#include "wincni/cni/env.hpp"
#include "wincni/hns/emulator/emulator.hpp"

namespace wincni::hnsctl {
namespace {

class EmulatorHost final : public EmulatedHost {
 public:
  explicit EmulatorHost(hns::emulator::Emulator& emulator) : emulator_(emulator) {}

  void store_hns_version(std::optional<hns::HnsVersion> version) override { emulator_.store_hns_version(version); }

  void set_adapter(const std::string& name, const std::optional<cni::IpAddress>& management_ip) override {
    emulator_.set_host_adapter(name, management_ip);
  }

  std::string describe() const override { return "HNS emulator in " + emulator_.config().state_dir; }

  std::optional<os::WindowsBuild> windows_build() const override {
    const auto text = cni::Environment::from_process().get("WINCNI_EMULATOR_OS_BUILD");
    return text ? os::WindowsBuild::parse(*text) : std::nullopt;
  }

 private:
  hns::emulator::Emulator& emulator_;
};

}  // namespace

std::unique_ptr<EmulatedHost> emulated_host(hns::HcnApi& api) {
  auto* emulator = dynamic_cast<hns::emulator::Emulator*>(&api);
  if (!emulator) return nullptr;
  return std::make_unique<EmulatorHost>(*emulator);
}

}  // namespace wincni::hnsctl
