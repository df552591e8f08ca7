#pragma once
// hnsctl's commands: each is "GROUP VERB [options]" with its own --help, run
// against a Context so that tests drive them in-process.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "emulated_host.hpp"
#include "wincni/os/byte_streams.hpp"
#include "wincni/os/command_line.hpp"
#include "wincni/hns/client.hpp"

namespace wincni::hnsctl {

struct Context {
  hns::HnsClient& client;
  EmulatedHost* emulated;  // null on a real Windows host
  os::ByteSink& out;
  os::ByteSink& err;
  os::ByteSource* in = nullptr;  // stdin, for commands that read a config
};

// fmt's text, written to `to`. Not std::ostream: see command_line.hpp for
// what the C++ runtime's streams and locales cost an .exe.
template <class... Values>
void print(os::ByteSink& to, fmt::format_string<Values...> format, Values&&... values) {
  to.write(fmt::format(format, std::forward<Values>(values)...));
}

// What follows "HNS 15.1" in version and caps: " (" and the emulator's
// description ")", nothing on a real host.
inline std::string emulated_suffix(const Context& context) {
  return context.emulated != nullptr ? fmt::format(" ({})", context.emulated->describe()) : std::string{};
}

// The context's HNS for code that takes its own shared handle (a fresh
// HnsClient, the endpoint engine); the context keeps owning it.
inline std::shared_ptr<hns::HcnApi> borrowed_api(Context& context) {
  return std::shared_ptr<hns::HcnApi>(&context.client.api(), [](hns::HcnApi*) {});
}

// Exit codes.
constexpr int kOk = 0;
constexpr int kFailed = 1;  // the command ran and failed, or audit found something
constexpr int kUsage = 2;

// Bad command line: printed with a pointer to --help, exit code kUsage.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using Args = std::vector<std::string>;

struct Command {
  std::string_view group;
  std::string_view verb;
  std::string_view summary;
  std::function<int(Context&, const Args&)> run;
};

// Parses `args` (the words after GROUP VERB) with --help added; prints the
// help and returns nullopt when asked for it. UsageError on a bad option.
std::optional<os::ParsedOptions> parse_options(os::OptionSet& options, const Args& args, os::ByteSink& out);

// The value of option `name` (given or its fallback) as a number: digits
// only. UsageError otherwise.
std::uint64_t number_option(const os::ParsedOptions& parsed, const std::string& name);

// The positional "id" option as a GUID; UsageError naming `what` ("namespace")
// when it is missing or not a GUID.
hns::Guid id_option(const os::ParsedOptions& parsed, const std::string& what);

// The registry (commands.cpp) and the entry point main() wires.
const std::vector<Command>& all_commands();
int run_hnsctl(const Args& args, Context& context);

}  // namespace wincni::hnsctl
