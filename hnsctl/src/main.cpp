// hnsctl: list, show, clean and set up HNS objects. main() only wires the
// default HNS backend to the commands.

#include <iostream>

#include "command.hpp"
#include "wincni/cni/program_arguments.hpp"
#include "wincni/hns/backend.hpp"

int main(int argc, char** argv) {
  using namespace wincni;
  try {
    std::shared_ptr<hns::HcnApi> api = hns::default_backend();
    hns::HnsClient client(api);
    auto emulated = hnsctl::emulated_host(*api);
    hnsctl::Context context{client, emulated.get(), std::cout, std::cerr, &std::cin};
    return hnsctl::run_hnsctl(cni::program_arguments(argc, argv), context);
  } catch (const std::exception& error) {
    std::cerr << "hnsctl: " << error.what() << '\n';
    return hnsctl::kFailed;
  }
}
