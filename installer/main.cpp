// wincni-install: puts wincni on a Windows node (install.hpp). main() only
// wires the command line, the environment, the standard descriptors and the
// exit codes.

#include <fmt/format.h>

#include "install.hpp"
#include "node_layout.hpp"
#include "uninstall.hpp"
#include "wincni/cni/build_identity.hpp"
#include "wincni/os/byte_streams.hpp"
#include "wincni/cni/env.hpp"
#include "wincni/os/program_arguments.hpp"

int main(int argc, char** argv) {
  using namespace wincni;
  os::DescriptorSink out(1);
  os::DescriptorSink err(2);
  try {
    const installer::ParsedCommandLine parsed =
        installer::parse_command_line(os::program_arguments(argc, argv), cni::Environment::from_process());
    switch (parsed.request) {
      case installer::Request::Help:
        out.write(parsed.help_text);
        return 0;
      case installer::Request::Version:
        out.write(cni::version_line("wincni-install") + '\n');
        return 0;
      case installer::Request::Layouts:
        out.write(installer::windows_layout_table().dump(2) + '\n');
        return 0;
      case installer::Request::Uninstall:
        installer::uninstall(parsed.options, out);
        return 0;
      case installer::Request::Install:
        break;
    }
    installer::install(parsed.options, out);
    return 0;
  } catch (const installer::UsageError& error) {
    err.write(fmt::format("wincni-install: {}\n(wincni-install --help lists the flags)\n", error.what()));
    return 2;
  } catch (const std::exception& error) {
    err.write(fmt::format("wincni-install: {}\n", error.what()));
    return 1;
  }
}
