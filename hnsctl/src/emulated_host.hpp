#pragma once
// What hnsctl may set on an emulated host that is not an HNS call: the HNS
// version it reports and its physical adapter. On real Windows there is no
// such thing (emulated_host() returns null), and the commands say so.

#include <memory>
#include <optional>
#include <string>

#include "wincni/cni/ip.hpp"
#include "wincni/hns/features.hpp"
#include "wincni/hns/seam.hpp"
#include "wincni/os/windows_build.hpp"

namespace wincni::hnsctl {

class EmulatedHost {
 public:
  virtual ~EmulatedHost() = default;
  virtual void store_hns_version(std::optional<hns::HnsVersion> version) = 0;
  virtual void set_adapter(const std::string& name, const std::optional<cni::IpAddress>& management_ip) = 0;
  virtual std::string describe() const = 0;  // "HNS emulator in /var/lib/..."
  // The Windows build the emulated host plays: WINCNI_EMULATOR_OS_BUILD
  // ("10.0.20348.2582"), none when unset.
  virtual std::optional<os::WindowsBuild> windows_build() const = 0;
};

// Null unless `api` is the HNS emulator.
std::unique_ptr<EmulatedHost> emulated_host(hns::HcnApi& api);

}  // namespace wincni::hnsctl
