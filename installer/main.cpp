// wincni-install: puts wincni on a Windows node (install.hpp). main() only
// wires the command line, the environment and the exit codes.

#include <iostream>

#include "install.hpp"
#include "node_layout.hpp"
#include "wincni/cni/build_identity.hpp"
#include "wincni/cni/env.hpp"
#include "wincni/cni/program_arguments.hpp"

int main(int argc, char** argv) {
  using namespace wincni;
  try {
    const installer::ParsedCommandLine parsed =
        installer::parse_command_line(cni::program_arguments(argc, argv), cni::Environment::from_process());
    switch (parsed.request) {
      case installer::Request::Help:
        std::cout << parsed.help_text;
        return 0;
      case installer::Request::Version:
        std::cout << cni::version_line("wincni-install") << '\n';
        return 0;
      case installer::Request::Layouts:
        std::cout << installer::windows_layout_table().dump(2) << '\n';
        return 0;
      case installer::Request::Install:
        break;
    }
    installer::install(parsed.options, std::cout, std::cerr);
    return 0;
  } catch (const installer::UsageError& error) {
    std::cerr << "wincni-install: " << error.what() << "\n(wincni-install --help lists the flags)\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "wincni-install: " << error.what() << '\n';
    return 1;
  }
}
