#pragma once
// The tables and key/value entries of a TOML document, each entry with its
// full key path and where its value's text lies, so that a few settings can
// be read and rewritten in place with every other byte kept (comments,
// order, line endings). Only strings and arrays of strings are decoded; any
// other value is stepped over by its syntax. Enough of TOML 1.0 for
// containerd's config.toml as generated and hand-edited; text it cannot
// follow is an error naming the line, never a guess.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace wincni::cni::toml {

using KeyPath = std::vector<std::string>;

enum class ValueKind { String, StringArray, InlineTable, Other };

struct Entry {
  KeyPath path;  // the table's path, then the (dotted) key
  ValueKind kind = ValueKind::Other;
  std::vector<std::string> strings;  // String: its text; StringArray: each element
  std::string scalar;                // Other, when not an array or table: the value's text ("3", "true")
  std::size_t value_begin = 0;       // the value's bytes in the document
  std::size_t value_end = 0;
  std::size_t line = 0;  // 1-based
  bool dotted = false;   // the key had dots, or sits in an inline table
};

struct Table {
  KeyPath path;
  std::size_t body_begin = 0;  // just past the header's line ending
  std::size_t line = 0;
  bool array = false;  // [[...]]
};

struct Document {
  std::vector<Table> tables;
  std::vector<Entry> entries;
};

struct SyntaxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws SyntaxError ("line 12: unterminated string").
Document scan(std::string_view text);

// `path` written as TOML: bare where it can be, quoted ('…') otherwise.
std::string key_text(const KeyPath& path);

// A TOML string holding `text`: a literal string ('C:\opt\cni\bin', no
// escapes needed) unless it contains a quote or a control character.
std::string string_literal(std::string_view text);

}  // namespace wincni::cni::toml
