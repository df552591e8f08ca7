// The tools' command-line options (command_line.hpp).

#include <doctest/doctest.h>

#include "wincni/os/command_line.hpp"

using namespace wincni::os;

namespace {

OptionSet node_options() {
  OptionSet options("hnsctl node vxlan", "Sets up the node as flanneld's vxlan backend does.");
  options.flag("help", "Show this help", 'h')
      .flag("json", "print JSON")
      .value("subnet", "the node's pod subnet")
      .value("vni", "VXLAN network identifier", "4096")
      .value("id", "ID")
      .positional("id", "ID");
  return options;
}

}  // namespace

TEST_CASE("options: flags, values in both spellings, fallbacks and the positional word") {
  const ParsedOptions parsed = node_options().parse({"--json", "--subnet", "10.244.1.0/24", "ABC", "--vni=7"});
  CHECK(parsed.given("json"));
  CHECK_FALSE(parsed.given("help"));
  CHECK(parsed.text("subnet") == "10.244.1.0/24");
  CHECK(parsed.text("vni") == "7");
  CHECK(parsed.text("id") == "ABC");

  const ParsedOptions defaults = node_options().parse({});
  CHECK_FALSE(defaults.given("vni"));
  CHECK(defaults.text("vni") == "4096");
  CHECK_FALSE(defaults.value("subnet").has_value());
  CHECK_THROWS_AS(defaults.text("subnet"), std::logic_error);
  CHECK_THROWS_AS(defaults.text("not declared"), std::logic_error);

  CHECK(node_options().parse({"-h"}).given("help"));
  // A value may start with '-', and "--" makes the next word positional.
  CHECK(node_options().parse({"--subnet", "-x"}).text("subnet") == "-x");
  CHECK(node_options().parse({"--", "-odd-id"}).text("id") == "-odd-id");
  CHECK(node_options().parse({"--subnet="}).text("subnet").empty());
  CHECK(node_options().parse({"--subnet=a=b"}).text("subnet") == "a=b");
  // Given twice, the last value counts (an override appended to a command line).
  CHECK(node_options().parse({"--vni", "4097", "--vni=4098"}).text("vni") == "4098");
}

TEST_CASE("options: what they do not accept is an error that says why") {
  auto error_of = [](std::vector<std::string> words) {
    try {
      node_options().parse(words);
    } catch (const CommandLineError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  CHECK(error_of({"--jsn"}) == "unknown option --jsn");
  CHECK(error_of({"--jsn=1"}) == "unknown option --jsn");
  CHECK(error_of({"-x"}) == "unknown option -x");
  CHECK(error_of({"-hj"}) == "unknown option -hj");
  CHECK(error_of({"--subnet"}) == "--subnet needs a value");
  CHECK(error_of({"--json=yes"}) == "--json takes no value");
  CHECK(error_of({"A", "B"}) == "unexpected argument \"B\"");
  CHECK(error_of({"--id", "A", "B"}) == "unexpected argument \"B\"");

  OptionSet no_positional("hnsctl network list", "List HNS networks");
  no_positional.flag("json", "print JSON");
  CHECK_THROWS_WITH_AS(no_positional.parse({"cbr0"}), "unexpected argument \"cbr0\"", CommandLineError);
}

TEST_CASE("options: a declaration mistake is the program's, not the user's") {
  OptionSet options("tool", "A tool");
  options.flag("json", "print JSON");
  CHECK_THROWS_AS(options.flag("json", "again"), std::logic_error);
  CHECK_THROWS_AS(options.positional("json", "X"), std::logic_error);
  CHECK_THROWS_AS(options.positional("absent", "X"), std::logic_error);
}

TEST_CASE("options: the help has the usage line, every option, its value and its fallback") {
  const std::string help = node_options().help();
  CHECK(
      help.starts_with("Sets up the node as flanneld's vxlan backend does.\nUsage:\n"
                       "  hnsctl node vxlan [OPTION...] ID\n\n"));
  CHECK(help.find("\n  -h, --help          Show this help\n") != std::string::npos);
  CHECK(help.find("\n      --json          print JSON\n") != std::string::npos);
  CHECK(help.find("\n      --vni VALUE     VXLAN network identifier (default: 4096)\n") != std::string::npos);

  // Long descriptions wrap at 80 columns, under their own column.
  OptionSet wordy("tool", std::string(30, 'a') + " " + std::string(30, 'b') + " " + std::string(30, 'c'));
  wordy.value("dir", std::string(40, 'x') + " " + std::string(40, 'y'));
  const std::string wrapped = wordy.help();
  CHECK(wrapped.starts_with(std::string(30, 'a') + " " + std::string(30, 'b') + "\n" + std::string(30, 'c') + "\n"));
  CHECK(wrapped.find("      --dir VALUE  " + std::string(40, 'x') + "\n                   " + std::string(40, 'y')) !=
        std::string::npos);
}
