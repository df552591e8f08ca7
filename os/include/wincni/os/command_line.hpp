#pragma once
// The options of the suite's tools (hnsctl's commands, wincni-install):
// `--name`, `--name VALUE`, `--name=VALUE`, a one-letter alias (`-h`), and
// at most one positional word. Not cxxopts: it classifies characters through
// std::locale::classic(), whose first use builds every locale facet of the
// C++ runtime, and a static .exe then carries all of them (0.4 MB of
// hnsctl.exe's 2.6; docs/benchmarks.md, section 6).

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace wincni::os {

// A command line the options do not accept; the message says what is wrong
// ("unknown option --jsn").
class CommandLineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What parse() found: each option's value by name.
class ParsedOptions {
 public:
  // On the command line (a flag, or a value option given a value).
  bool given(std::string_view name) const;
  // The value given, else the option's fallback; nullopt when neither.
  std::optional<std::string> value(std::string_view name) const;
  // The value given, else the fallback; std::logic_error when there is
  // neither (ask given() first for an option without a fallback).
  std::string text(std::string_view name) const;

 private:
  friend class OptionSet;
  struct Entry {
    std::string name;
    std::optional<std::string> value;  // set when given, or from the fallback
    bool given = false;
  };
  const Entry* find(std::string_view name) const;
  std::vector<Entry> entries_;
};

class OptionSet {
 public:
  // `program` heads the usage line ("hnsctl network list"); `description`
  // heads the help.
  OptionSet(std::string program, std::string description);

  // --name, which takes no value; `letter` is its one-letter alias, if any.
  OptionSet& flag(std::string name, std::string help, char letter = '\0');
  // --name VALUE; `fallback` is its value when it is not given.
  OptionSet& value(std::string name, std::string help, std::optional<std::string> fallback = std::nullopt);
  // A word that is not an option goes to the value option `name`; the usage
  // line shows it as `shown_as`. A second such word is an error.
  OptionSet& positional(std::string name, std::string shown_as);

  // The usage line, then one line per option with its help and fallback.
  std::string help() const;
  // CommandLineError for an unknown option, a value option without its
  // value, a flag given a value, or a word nothing takes. A word after "--"
  // is positional even when it starts with '-'; an option given twice has
  // its last value.
  ParsedOptions parse(const std::vector<std::string>& words) const;

 private:
  struct Option {
    std::string name;
    std::string help;
    char letter = '\0';
    bool takes_value = false;
    std::optional<std::string> fallback;
  };
  const Option* find_long(std::string_view name) const;
  const Option* find_letter(char letter) const;
  Option& add(std::string name, std::string help);

  std::string program_;
  std::string description_;
  std::vector<Option> options_;
  std::string positional_;
  std::string positional_shown_as_;
};

}  // namespace wincni::os
