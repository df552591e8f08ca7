#include <fmt/format.h>

#include "command.hpp"
#include "wincni/cni/build_identity.hpp"

namespace wincni::hnsctl {
namespace {

void print_overview(std::ostream& out, std::string_view only_group = {}) {
  out << "hnsctl: list, show and set up HNS networks, endpoints and namespaces\n"
         "(the real HNS on Windows, the HNS emulator on Linux).\n\n"
         "Usage: hnsctl GROUP VERB [options]   (each command takes --help)\n"
         "       hnsctl --version              (this build of hnsctl)\n\n";
  for (const auto& command : all_commands()) {
    if (!only_group.empty() && command.group != only_group) continue;
    out << fmt::format("  {:<28} {}\n", fmt::format("{} {}", command.group, command.verb), command.summary);
  }
}

bool is_help(const std::string& word) { return word == "--help" || word == "-h" || word == "help"; }

// Groups that are one command each: their verb may be left out.
std::string_view implied_verb(std::string_view group) {
  if (group == "version" || group == "caps") return "show";
  if (group == "audit" || group == "doctor") return "run";
  if (group == "explain") return "add";
  if (group == "source-vip") return "reserve";
  return {};
}

}  // namespace

std::optional<cxxopts::ParseResult> parse_options(cxxopts::Options& options, const Args& args, std::ostream& out) {
  options.add_options()("h,help", "Show this help");
  std::vector<std::string> words{options.program()};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  try {
    auto result = options.parse(static_cast<int>(argv.size()), argv.data());
    if (result.count("help")) {
      out << options.help();
      return std::nullopt;
    }
    if (!result.unmatched().empty()) throw UsageError("unexpected argument \"" + result.unmatched().front() + "\"");
    return result;
  } catch (const cxxopts::exceptions::exception& error) {
    throw UsageError(error.what());
  }
}

int run_hnsctl(const Args& args, Context& context) {
  if (args.empty() || is_help(args[0])) {
    print_overview(context.out);
    return args.empty() ? kUsage : kOk;
  }
  // The build, as every binary of the suite says it ("hnsctl version" is
  // HNS's version).
  if (args[0] == "--version") {
    context.out << cni::version_line("hnsctl") << '\n';
    return kOk;
  }
  const std::string& group = args[0];
  bool group_known = false;
  for (const auto& command : all_commands()) group_known = group_known || command.group == group;
  if (!group_known) {
    context.err << "hnsctl: unknown command \"" << group << "\" (see hnsctl --help)\n";
    return kUsage;
  }
  if (const std::string_view verb = implied_verb(group); !verb.empty()) {
    Args implied{group, std::string(verb)};
    bool has_verb = args.size() > 1 && (args[1] == implied[1]);
    implied.insert(implied.end(), args.begin() + (has_verb ? 2 : 1), args.end());
    if (implied != args) return run_hnsctl(implied, context);
  }
  if (args.size() < 2 || is_help(args[1])) {
    print_overview(context.out, group);
    return args.size() < 2 ? kUsage : kOk;
  }
  for (const auto& command : all_commands()) {
    if (command.group != group || command.verb != args[1]) continue;
    try {
      return command.run(context, Args(args.begin() + 2, args.end()));
    } catch (const UsageError& error) {
      context.err << fmt::format("hnsctl {} {}: {} (see hnsctl {} {} --help)\n", group, args[1], error.what(), group,
                                 args[1]);
      return kUsage;
    } catch (const std::exception& error) {
      context.err << fmt::format("hnsctl {} {}: {}\n", group, args[1], error.what());
      return kFailed;
    }
  }
  context.err << fmt::format("hnsctl: \"{}\" has no command \"{}\" (see hnsctl {} --help)\n", group, args[1], group);
  return kUsage;
}

}  // namespace wincni::hnsctl
