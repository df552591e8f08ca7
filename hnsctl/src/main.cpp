// hnsctl: list, show, clean and set up HNS objects. main() only wires the
// default HNS backend and the standard streams to the commands.

#include <iostream>

#include "command.hpp"
#include "wincni/cni/fd_stream.hpp"
#include "wincni/cni/program_arguments.hpp"
#include "wincni/hns/backend.hpp"

int main(int argc, char** argv) {
  using namespace wincni;
  try {
    std::shared_ptr<hns::HcnApi> api = hns::default_backend();
    hns::HnsClient client(api);
    auto emulated = hnsctl::emulated_host(*api);
    // stdin as the plugins read theirs, byte for byte (std::cin is in text
    // mode on Windows): explain decodes a config piped to it as they do.
    cni::FdInputStreambuf stdin_buf(0);
    std::istream in(&stdin_buf);
    hnsctl::Context context{client, emulated.get(), std::cout, std::cerr, &in};
    return hnsctl::run_hnsctl(cni::program_arguments(argc, argv), context);
  } catch (const std::exception& error) {
    std::cerr << "hnsctl: " << error.what() << '\n';
    return hnsctl::kFailed;
  }
}
