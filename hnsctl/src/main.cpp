// hnsctl: list, show, clean and set up HNS objects. main() only wires the
// default HNS backend and the standard descriptors to the commands.

#include "command.hpp"
#include "wincni/os/program_arguments.hpp"
#include "wincni/hns/backend.hpp"

int main(int argc, char** argv) {
  using namespace wincni;
  // Byte for byte, as the plugins read and write theirs: explain decodes a
  // config piped to it as a plugin would (no text-mode translation on
  // Windows).
  os::DescriptorSource in(0);
  os::DescriptorSink out(1);
  os::DescriptorSink err(2);
  try {
    std::shared_ptr<hns::HcnApi> api = hns::default_backend();
    hns::HnsClient client(api);
    auto emulated = hnsctl::emulated_host(*api);
    hnsctl::Context context{client, emulated.get(), out, err, &in};
    return hnsctl::run_hnsctl(os::program_arguments(argc, argv), context);
  } catch (const std::exception& error) {
    hnsctl::print(err, "hnsctl: {}\n", error.what());
    return hnsctl::kFailed;
  }
}
