#pragma once
// hnsctl's commands: each is "GROUP VERB [options]" with its own --help, run
// against a Context so that tests drive them in-process.

#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <cxxopts.hpp>

#include "emulated_host.hpp"
#include "wincni/hns/client.hpp"

namespace wincni::hnsctl {

struct Context {
  hns::HnsClient& client;
  EmulatedHost* emulated;  // null on a real Windows host
  std::ostream& out;
  std::ostream& err;
  std::istream* in = nullptr;  // stdin, for commands that read a config
};

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
std::optional<cxxopts::ParseResult> parse_options(cxxopts::Options& options, const Args& args, std::ostream& out);

// The registry (commands.cpp) and the entry point main() wires.
const std::vector<Command>& all_commands();
int run_hnsctl(const Args& args, Context& context);

}  // namespace wincni::hnsctl
