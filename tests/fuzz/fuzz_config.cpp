// Every plugin's reading of its network config: libcni's NetConf (and the
// prevResult in it), the engine's endpoint config (win-bridge, win-overlay),
// flannel's config and host-local's IPAM config. A top-level string
// "CNI_ARGS", when present, is what host-local gets as CNI_ARGS, so that the
// fuzzer mutates the two together (IP= meets the ranges).

#include <optional>

#include "config/endpoint_config.hpp"
#include "fuzz_input.hpp"
#include "ipam_config.hpp"
#include "wincni/cni/config.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/flannel/flannel_config.hpp"

using namespace wincni;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::optional<cni::NetConf> conf;
  if (!fuzz::tolerating<cni::Error>([&] { conf = cni::NetConf::parse(fuzz::text(data, size)); })) return 0;

  std::string cni_args;
  if (const auto* args = conf->find("CNI_ARGS"); args && args->is_string()) cni_args = args->get<std::string>();

  fuzz::tolerating<cni::Error>([&] { conf->prev_result(); });
  fuzz::tolerating<cni::Error>([&] { engine::read_endpoint_config(*conf); });
  fuzz::tolerating<cni::Error>([&] { engine::read_teardown_config(*conf); });
  fuzz::tolerating<cni::Error>([&] { flannel::read_flannel_config(*conf); });
  fuzz::tolerating<cni::Error>([&] { hostlocal::StoreLocation::of(*conf); });
  fuzz::tolerating<cni::Error>([&] { hostlocal::IpamConfig::load(*conf, cni_args); });
  return 0;
}
