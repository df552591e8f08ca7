#include <charconv>

#include <fmt/format.h>

#include "command.hpp"
#include "wincni/cni/build_identity.hpp"

namespace wincni::hnsctl {
namespace {

void print_overview(os::ByteSink& out, std::string_view only_group = {}) {
  out.write(
      "hnsctl: list, show and set up HNS networks, endpoints and namespaces\n"
      "(the real HNS on Windows, the HNS emulator on Linux).\n\n"
      "Usage: hnsctl GROUP VERB [options]   (each command takes --help)\n"
      "       hnsctl --version              (this build of hnsctl)\n\n");
  for (const auto& command : all_commands()) {
    if (!only_group.empty() && command.group != only_group) continue;
    print(out, "  {:<28} {}\n", fmt::format("{} {}", command.group, command.verb), command.summary);
  }
}

bool is_help(const std::string& word) { return word == "--help" || word == "-h" || word == "help"; }

// Groups that are one command each: their verb may be left out.
std::string_view implied_verb(std::string_view group) {
  if (group == "version" || group == "caps") return "show";
  if (group == "audit" || group == "doctor" || group == "collect") return "run";
  if (group == "explain") return "add";
  if (group == "source-vip") return "reserve";
  return {};
}

}  // namespace

std::optional<os::ParsedOptions> parse_options(os::OptionSet& options, const Args& args, os::ByteSink& out) {
  options.flag("help", "Show this help", 'h');
  try {
    os::ParsedOptions parsed = options.parse(args);
    if (parsed.given("help")) {
      out.write(options.help());
      return std::nullopt;
    }
    return parsed;
  } catch (const os::CommandLineError& error) {
    throw UsageError(error.what());
  }
}

std::uint64_t number_option(const os::ParsedOptions& parsed, const std::string& name) {
  const std::string text = parsed.text(name);
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
    throw UsageError(fmt::format("--{} \"{}\" is not a number", name, text));
  }
  return value;
}

hns::Guid id_option(const os::ParsedOptions& parsed, const std::string& what) {
  if (!parsed.given("id")) throw UsageError(fmt::format("which {}? give its ID", what));
  const std::string text = parsed.text("id");
  const auto id = hns::Guid::parse(text);
  if (!id) throw UsageError(fmt::format("\"{}\" is not a {} ID (a GUID)", text, what));
  return *id;
}

int run_hnsctl(const Args& args, Context& context) {
  if (args.empty() || is_help(args[0])) {
    print_overview(context.out);
    return args.empty() ? kUsage : kOk;
  }
  // The build, as every binary of the suite says it ("hnsctl version" is
  // HNS's version).
  if (args[0] == "--version") {
    print(context.out, "{}\n", cni::version_line("hnsctl"));
    return kOk;
  }
  const std::string& group = args[0];
  bool group_known = false;
  for (const auto& command : all_commands()) group_known = group_known || command.group == group;
  if (!group_known) {
    print(context.err, "hnsctl: unknown command \"{}\" (see hnsctl --help)\n", group);
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
      print(context.err, "hnsctl {} {}: {} (see hnsctl {} {} --help)\n", group, args[1], error.what(), group, args[1]);
      return kUsage;
    } catch (const std::exception& error) {
      print(context.err, "hnsctl {} {}: {}\n", group, args[1], error.what());
      return kFailed;
    }
  }
  print(context.err, "hnsctl: \"{}\" has no command \"{}\" (see hnsctl {} --help)\n", group, args[1], group);
  return kUsage;
}

}  // namespace wincni::hnsctl
