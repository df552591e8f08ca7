#include "wincni/os/command_line.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

namespace wincni::os {
namespace {

// Help lines are wrapped here, as a terminal of 80 columns shows them.
constexpr std::size_t kHelpWidth = 80;

// `text` in lines of at most `width` characters (a longer word on a line of
// its own), each after `indent` but the first.
std::string wrapped(std::string_view text, std::size_t width, std::size_t indent) {
  std::string out;
  std::size_t line = 0;
  while (!text.empty()) {
    const std::size_t start = text.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    text.remove_prefix(start);
    const std::string_view word = text.substr(0, text.find(' '));
    text.remove_prefix(word.size());
    if (line > 0 && line + 1 + word.size() > width) {
      out += '\n';
      out.append(indent, ' ');
      line = 0;
    } else if (line > 0) {
      out += ' ';
      ++line;
    }
    out += word;
    line += word.size();
  }
  return out;
}

}  // namespace

const ParsedOptions::Entry* ParsedOptions::find(std::string_view name) const {
  for (const Entry& entry : entries_) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

bool ParsedOptions::given(std::string_view name) const {
  const Entry* entry = find(name);
  return entry != nullptr && entry->given;
}

std::optional<std::string> ParsedOptions::value(std::string_view name) const {
  const Entry* entry = find(name);
  return entry != nullptr ? entry->value : std::nullopt;
}

std::string ParsedOptions::text(std::string_view name) const {
  std::optional<std::string> found = value(name);
  if (!found) throw std::logic_error(fmt::format("option --{} has no value and no fallback", name));
  return *found;
}

OptionSet::OptionSet(std::string program, std::string description)
    : program_(std::move(program)), description_(std::move(description)) {}

OptionSet::Option& OptionSet::add(std::string name, std::string help) {
  if (find_long(name) != nullptr) throw std::logic_error(fmt::format("option --{} declared twice", name));
  Option& option = options_.emplace_back();
  option.name = std::move(name);
  option.help = std::move(help);
  return option;
}

OptionSet& OptionSet::flag(std::string name, std::string help, char letter) {
  add(std::move(name), std::move(help)).letter = letter;
  return *this;
}

OptionSet& OptionSet::value(std::string name, std::string help, std::optional<std::string> fallback) {
  Option& option = add(std::move(name), std::move(help));
  option.takes_value = true;
  option.fallback = std::move(fallback);
  return *this;
}

OptionSet& OptionSet::positional(std::string name, std::string shown_as) {
  const Option* option = find_long(name);
  if (option == nullptr || !option->takes_value) {
    throw std::logic_error(fmt::format("positional --{} is not a value option", name));
  }
  positional_ = std::move(name);
  positional_shown_as_ = std::move(shown_as);
  return *this;
}

const OptionSet::Option* OptionSet::find_long(std::string_view name) const {
  for (const Option& option : options_) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

const OptionSet::Option* OptionSet::find_letter(char letter) const {
  if (letter == '\0') return nullptr;
  for (const Option& option : options_) {
    if (option.letter == letter) return &option;
  }
  return nullptr;
}

std::string OptionSet::help() const {
  std::string out = wrapped(description_, kHelpWidth, 0);
  out += fmt::format("\nUsage:\n  {} [OPTION...]", program_);
  if (!positional_.empty()) out += ' ' + positional_shown_as_;
  out += "\n\n";
  std::vector<std::string> heads;
  std::size_t widest = 0;
  for (const Option& option : options_) {
    std::string head = option.letter != '\0' ? fmt::format("  -{}, --{}", option.letter, option.name)
                                             : fmt::format("      --{}", option.name);
    if (option.takes_value) head += " VALUE";
    widest = std::max(widest, head.size());
    heads.push_back(std::move(head));
  }
  const std::size_t help_column = widest + 2;
  for (std::size_t i = 0; i < options_.size(); ++i) {
    const Option& option = options_[i];
    std::string help = option.help;
    if (option.fallback && !option.fallback->empty()) help += fmt::format(" (default: {})", *option.fallback);
    const std::size_t width = kHelpWidth > help_column + 20 ? kHelpWidth - help_column : 20;
    out += fmt::format("{:<{}}{}\n", heads[i], help_column, wrapped(help, width, help_column));
  }
  return out;
}

ParsedOptions OptionSet::parse(const std::vector<std::string>& words) const {
  ParsedOptions parsed;
  for (const Option& option : options_) parsed.entries_.push_back({option.name, option.fallback, false});
  auto entry_of = [&](const Option& option) -> ParsedOptions::Entry& {
    return parsed.entries_[static_cast<std::size_t>(&option - options_.data())];
  };
  // Given again, an option's last value counts: a script can append an
  // override to a command line it was handed.
  auto set = [&](const Option& option, std::optional<std::string> value) {
    ParsedOptions::Entry& entry = entry_of(option);
    entry.given = true;
    if (value) entry.value = std::move(value);
  };
  const Option* positional = positional_.empty() ? nullptr : find_long(positional_);
  bool only_positional = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    const bool is_option = !only_positional && word.size() > 1 && word[0] == '-';
    if (is_option && word == "--") {
      only_positional = true;
      continue;
    }
    if (!is_option) {
      if (positional == nullptr || entry_of(*positional).given) {
        throw CommandLineError(fmt::format("unexpected argument \"{}\"", word));
      }
      set(*positional, word);
      continue;
    }
    const Option* option = nullptr;
    std::optional<std::string> inline_value;
    std::string shown = word;
    if (word[1] == '-') {
      std::string_view name = std::string_view(word).substr(2);
      if (const std::size_t equals = name.find('='); equals != std::string_view::npos) {
        inline_value = std::string(name.substr(equals + 1));
        name = name.substr(0, equals);
        shown = fmt::format("--{}", name);
      }
      option = find_long(name);
    } else if (word.size() == 2) {
      option = find_letter(word[1]);
    }
    if (option == nullptr) throw CommandLineError(fmt::format("unknown option {}", shown));
    if (!option->takes_value) {
      if (inline_value) throw CommandLineError(fmt::format("--{} takes no value", option->name));
      set(*option, std::nullopt);
      continue;
    }
    if (!inline_value) {
      if (i + 1 == words.size()) throw CommandLineError(fmt::format("--{} needs a value", option->name));
      inline_value = words[++i];
    }
    set(*option, std::move(inline_value));
  }
  return parsed;
}

}  // namespace wincni::os
