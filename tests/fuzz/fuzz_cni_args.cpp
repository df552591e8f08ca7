// CNI_ARGS, with the standard keys and with none declared (every key then
// unknown unless IgnoreUnknown says otherwise), and its IP=.

#include "fuzz_input.hpp"
#include "wincni/cni/cni_args.hpp"
#include "wincni/cni/error.hpp"

using namespace wincni;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = fuzz::text(data, size);
  cni::CniArgs args;
  if (fuzz::tolerating<cni::Error>([&] { args = cni::CniArgs::parse(input); })) {
    fuzz::tolerating<cni::Error>([&] { args.ip(); });
  }
  fuzz::tolerating<cni::Error>([&] { cni::CniArgs::parse(input, {}); });
  return 0;
}
