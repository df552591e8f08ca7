#include "toml_entries.hpp"

#include <fmt/format.h>

#include "utf8_encoding.hpp"

namespace wincni::cni::toml {

namespace {

bool is_bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {
    if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // PowerShell 5's UTF-8 files start with a BOM
  }

  Document run() {
    KeyPath table;
    while (true) {
      skip_blank();
      if (at_end()) break;
      const char c = peek();
      if (c == '\n' || c == '\r') {
        line_break();
      } else if (c == '#') {
        skip_comment();
      } else if (c == '[') {
        table = header();
      } else {
        key_value(table, false);
        end_of_line();
      }
    }
    return std::move(document_);
  }

 private:
  [[noreturn]] void fail(std::string_view what) const { throw SyntaxError(fmt::format("line {}: {}", line_, what)); }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  bool looking_at(std::string_view what) const { return text_.substr(pos_).starts_with(what); }

  void skip_blank() {
    while (!at_end() && (peek() == ' ' || peek() == '\t')) ++pos_;
  }
  void skip_comment() {
    while (!at_end() && peek() != '\n' && peek() != '\r') ++pos_;
  }
  void line_break() {
    if (peek() == '\r') {
      ++pos_;
      if (peek() != '\n') fail("a carriage return without a line feed");
    }
    ++pos_;
    ++line_;
  }
  // Blanks, comments and line breaks, as arrays allow between elements.
  void skip_space_in_array() {
    while (!at_end()) {
      skip_blank();
      if (peek() == '#') skip_comment();
      if (peek() == '\n' || peek() == '\r') {
        line_break();
      } else {
        return;
      }
    }
  }
  void end_of_line() {
    skip_blank();
    if (peek() == '#') skip_comment();
    if (at_end()) return;
    if (peek() != '\n' && peek() != '\r') fail(fmt::format("unexpected '{}' after a value", peek()));
    line_break();
  }

  KeyPath header() {
    ++pos_;
    const bool array = peek() == '[';
    if (array) ++pos_;
    skip_blank();
    KeyPath path = dotted_key();
    skip_blank();
    if (peek() != ']' || (array && peek(1) != ']')) fail("a table header without its closing bracket");
    pos_ += array ? 2 : 1;
    if (document_.tables.size() >= kMaxTables) fail(fmt::format("more than {} tables", kMaxTables));
    const std::size_t line = line_;
    end_of_line();
    document_.tables.push_back({path, pos_, line, array});
    return path;
  }

  KeyPath dotted_key() {
    KeyPath path;
    while (true) {
      skip_blank();
      path.push_back(simple_key());
      if (path.size() > kMaxKeyParts) fail(fmt::format("a key of more than {} parts", kMaxKeyParts));
      skip_blank();
      if (peek() != '.') return path;
      ++pos_;
    }
  }

  std::string simple_key() {
    if (peek() == '"') return basic_string();
    if (peek() == '\'') return literal_string();
    const std::size_t start = pos_;
    while (!at_end() && is_bare_key_char(peek())) ++pos_;
    if (pos_ == start) fail("a key was expected");
    return std::string(text_.substr(start, pos_ - start));
  }

  void key_value(const KeyPath& table, bool in_inline_table) {
    const std::size_t line = line_;
    KeyPath key = dotted_key();
    skip_blank();
    if (peek() != '=') fail("'=' was expected after a key");
    ++pos_;
    skip_blank();
    if (table.size() + key.size() > kMaxKeyParts) {
      fail(fmt::format("a key of more than {} parts with its table's", kMaxKeyParts));
    }
    if (document_.entries.size() >= kMaxEntries) fail(fmt::format("more than {} keys", kMaxEntries));
    Entry entry;
    entry.path = table;
    entry.path.insert(entry.path.end(), key.begin(), key.end());
    entry.line = line;
    entry.dotted = in_inline_table || key.size() > 1;
    entry.value_begin = pos_;
    value(entry);
    entry.value_end = pos_;
    document_.entries.push_back(std::move(entry));
  }

  // Fills kind, strings and scalar; inline tables' own entries are recorded
  // as they are read.
  void value(Entry& entry) {
    // Each array or inline table is a level of this recursion: a file of
    // "[[[[..." must be an error, never a stack overflow.
    if (depth_ >= kMaxDepth) fail("arrays or inline tables nested deeper than 64 levels");
    ++depth_;
    struct Leave {
      int& depth;
      ~Leave() { --depth; }
    } leave{depth_};
    const char c = peek();
    if (c == '"' || c == '\'') {
      entry.kind = ValueKind::String;
      entry.strings.push_back(any_string());
    } else if (c == '[') {
      array(entry);
    } else if (c == '{') {
      entry.kind = ValueKind::InlineTable;
      inline_table(entry.path);
    } else {
      entry.kind = ValueKind::Other;
      const std::size_t start = pos_;
      // Numbers, booleans, dates ("1979-05-27 07:32:00" has a blank inside).
      while (!at_end() && peek() != ',' && peek() != ']' && peek() != '}' && peek() != '#' && peek() != '\n' &&
             peek() != '\r') {
        ++pos_;
      }
      std::string_view scalar = text_.substr(start, pos_ - start);
      while (!scalar.empty() && (scalar.back() == ' ' || scalar.back() == '\t')) scalar.remove_suffix(1);
      pos_ = start + scalar.size();
      if (scalar.empty()) fail("a value was expected");
      entry.scalar = std::string(scalar);
    }
  }

  void array(Entry& entry) {
    ++pos_;
    bool only_strings = true;
    std::vector<std::string> strings;
    while (true) {
      skip_space_in_array();
      if (at_end()) fail("an array without its closing bracket");
      if (peek() == ']') break;
      Entry element;
      element.path = entry.path;
      value(element);
      if (element.kind == ValueKind::String) {
        strings.push_back(std::move(element.strings.front()));
      } else {
        only_strings = false;
      }
      skip_space_in_array();
      if (at_end()) fail("an array without its closing bracket");
      if (peek() == ',') {
        ++pos_;
      } else if (peek() != ']') {
        fail("',' or ']' was expected in an array");
      }
    }
    ++pos_;
    entry.kind = only_strings ? ValueKind::StringArray : ValueKind::Other;
    if (only_strings) entry.strings = std::move(strings);
  }

  void inline_table(const KeyPath& path) {
    ++pos_;
    skip_blank();
    if (peek() == '}') {
      ++pos_;
      return;
    }
    while (true) {
      skip_blank();
      key_value(path, true);
      skip_blank();
      if (peek() == '}') {
        ++pos_;
        return;
      }
      if (peek() != ',') fail("',' or '}' was expected in an inline table");
      ++pos_;
    }
  }

  std::string any_string() {
    if (looking_at("\"\"\"")) return multiline_string('"');
    if (looking_at("'''")) return multiline_string('\'');
    return peek() == '"' ? basic_string() : literal_string();
  }

  std::string basic_string() {
    ++pos_;
    std::string out;
    while (true) {
      if (at_end() || peek() == '\n' || peek() == '\r') fail("an unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (c == '\\') {
        escape(out);
      } else {
        out += c;
      }
    }
  }

  void escape(std::string& out) {
    if (at_end()) fail("an unterminated string");
    const char c = text_[pos_++];
    switch (c) {
      case 'b':
        out += '\b';
        return;
      case 't':
        out += '\t';
        return;
      case 'n':
        out += '\n';
        return;
      case 'f':
        out += '\f';
        return;
      case 'r':
        out += '\r';
        return;
      case 'e':
        out += '\x1b';
        return;
      case '"':
      case '\\':
        out += c;
        return;
      case 'u':
      case 'U': {
        const std::size_t digits = c == 'u' ? 4 : 8;
        if (pos_ + digits > text_.size()) fail("a short \\u escape");
        std::uint32_t code = 0;
        for (std::size_t i = 0; i < digits; ++i) {
          const char h = text_[pos_++];
          code <<= 4;
          if (h >= '0' && h <= '9') {
            code |= h - '0';
          } else if (h >= 'a' && h <= 'f') {
            code |= h - 'a' + 10;
          } else if (h >= 'A' && h <= 'F') {
            code |= h - 'A' + 10;
          } else {
            fail("a \\u escape with a character that is not a hex digit");
          }
        }
        if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) fail("a \\u escape that is not a character");
        append_utf8(out, code);
        return;
      }
      default:
        // Go's TOML readers refuse an unknown escape as well: "C:\opt" in
        // double quotes is an error there too.
        fail(fmt::format("the escape \\{} (write Windows paths in single quotes, or with \\\\)", c));
    }
  }

  std::string literal_string() {
    ++pos_;
    const std::size_t start = pos_;
    while (true) {
      if (at_end() || peek() == '\n' || peek() == '\r') fail("an unterminated string");
      if (peek() == '\'') break;
      ++pos_;
    }
    std::string out(text_.substr(start, pos_ - start));
    ++pos_;
    return out;
  }

  std::string multiline_string(char quote) {
    pos_ += 3;
    if (peek() == '\r' || peek() == '\n') line_break();  // a newline right after the opening is trimmed
    std::string out;
    while (true) {
      if (at_end()) fail("an unterminated multi-line string");
      if (peek() == quote && peek(1) == quote && peek(2) == quote) {
        pos_ += 3;
        // Up to two more quotes belong to the content ("""a"""" is a").
        for (int extra = 0; extra < 2 && peek() == quote; ++extra, ++pos_) out += quote;
        return out;
      }
      const char c = peek();
      if (c == '\n' || c == '\r') {
        out += '\n';
        line_break();
      } else if (c == '\\' && quote == '"') {
        ++pos_;
        // A backslash at a line's end joins the next non-blank text to it.
        std::size_t ahead = pos_;
        while (ahead < text_.size() && (text_[ahead] == ' ' || text_[ahead] == '\t')) ++ahead;
        if (ahead < text_.size() && (text_[ahead] == '\n' || text_[ahead] == '\r')) {
          pos_ = ahead;
          while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) {
            if (peek() == '\n' || peek() == '\r') {
              line_break();
            } else {
              ++pos_;
            }
          }
        } else {
          escape(out);
        }
      } else {
        out += c;
        ++pos_;
      }
    }
  }

  static constexpr int kMaxDepth = 64;
  // Each entry keeps its whole key path, so a long table header followed
  // by many short keys multiplied (a 100 KiB file could ask for
  // gigabytes). containerd's default config.toml has some 150 keys in 40
  // tables, none deeper than 8 parts; these leave room for any hand-edited
  // one and bound what a file can cost at a few MiB.
  static constexpr std::size_t kMaxKeyParts = 64;
  static constexpr std::size_t kMaxEntries = 10000;
  static constexpr std::size_t kMaxTables = 10000;

  std::string_view text_;
  int depth_ = 0;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
  Document document_;
};

}  // namespace

Document scan(std::string_view text) { return Scanner(text).run(); }

std::string key_text(const KeyPath& path) {
  std::string out;
  for (const std::string& key : path) {
    if (!out.empty()) out += '.';
    bool bare = !key.empty();
    for (char c : key) bare = bare && is_bare_key_char(c);
    out += bare ? key : string_literal(key);
  }
  return out;
}

std::string string_literal(std::string_view text) {
  bool literal = true;
  for (char c : text) literal = literal && c != '\'' && static_cast<unsigned char>(c) >= 0x20 && c != 0x7F;
  if (literal) return fmt::format("'{}'", text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      out += fmt::format("\\u{:04X}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out + '"';
}

}  // namespace wincni::cni::toml
