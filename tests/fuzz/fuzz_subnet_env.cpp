// flanneld's subnet.env as flannel reads it.

#include "fuzz_input.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/flannel/subnet_env.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::tolerating<wincni::cni::Error>(
      [&] { wincni::flannel::parse_subnet_env(fuzz::text(data, size), "/run/flannel/subnet.env"); });
  return 0;
}
