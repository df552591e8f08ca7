#include "collect/secret_redaction.hpp"

#include <array>
#include <optional>

namespace wincni::hnsctl::collect {

namespace {

// Lower case; matched ignoring ASCII case, anywhere in a key
// ("bearerToken", "etcd_password", "client-key-data", "identitytoken",
// "apiKey", "private_key", Azure's "AccountKey=").
constexpr std::array<std::string_view, 13> kSecretWords{
    "token",   "password",    "passwd",      "secret",      "client-key-data", "credentials", "apikey",
    "api_key", "api-key",     "privatekey",  "private_key", "private-key",     "accountkey"};
// Matched only as a whole key: containerd's registry `auth` (base64 of
// user:password; "author" or "Authorization" are not it), `pwd` (an ODBC
// or connection string's), `sig` (an Azure SAS URL's signature).
constexpr std::array<std::string_view, 3> kWholeKeys{"auth", "pwd", "sig"};
// HTTP authorization schemes, followed by the credentials: "Bearer" in any
// case, "Basic" as written (the word is common in prose).
constexpr std::string_view kBearer = "bearer ";
constexpr std::string_view kBasic = "Basic ";
constexpr std::string_view kRedacted = "<redacted>";

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool matches_at(std::string_view text, std::size_t at, std::string_view word) {
  if (at + word.size() > text.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (lower(text[at + i]) != word[i]) return false;
  }
  return true;
}

bool is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

bool starts_word(std::string_view text, std::size_t at) { return at == 0 || !is_key_char(text[at - 1]); }

struct Span {
  std::size_t begin;
  std::size_t end;
};

// The blanks the line starting at `line_start` starts with.
std::size_t indentation_of_line(std::string_view text, std::size_t line_start) {
  std::size_t i = line_start;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  return i - line_start;
}

// Where the line holding a position starts, for positions that only grow:
// the scan resumes where the last one ended, so a line of many keys costs
// its length once, not once a key (a search back from each key made a
// long line quadratic).
class LineStarts {
 public:
  explicit LineStarts(std::string_view text) : text_(text) {}
  std::size_t of(std::size_t at) {
    for (; scanned_ < at && scanned_ < text_.size(); ++scanned_) {
      if (text_[scanned_] == '\n') start_ = scanned_ + 1;
    }
    return start_;
  }

 private:
  std::string_view text_;
  std::size_t scanned_ = 0;
  std::size_t start_ = 0;
};

std::size_t line_end(std::string_view text, std::size_t at) {
  const std::size_t end = text.find_first_of("\r\n", at);
  return end == std::string_view::npos ? text.size() : end;
}

// A YAML block scalar after "key: |": the lines indented deeper than the
// key's line.
Span block_scalar(std::string_view text, std::size_t at, std::size_t key_indent) {
  std::size_t end = line_end(text, at);
  while (end < text.size()) {
    std::size_t next = end;
    while (next < text.size() && (text[next] == '\r' || text[next] == '\n')) ++next;
    if (next >= text.size()) break;
    const std::size_t blank_line_end = line_end(text, next);
    const bool blank = text.substr(next, blank_line_end - next).find_first_not_of(" \t") == std::string_view::npos;
    if (!blank && indentation_of_line(text, next) <= key_indent) break;
    end = blank_line_end;
  }
  return {at, end};
}

// From the '{' or '[' at `at` to its matching bracket (inside strings
// none counts), or to the text's end when it has none.
Span bracketed(std::string_view text, std::size_t at) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = at; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return {at, i + 1};
    }
  }
  return {at, text.size()};
}

// The value after a key that ends at `at`: past a closing quote (", ', or
// \" inside a JSON string that is itself quoted), blanks, ':' or '=',
// blanks; then a quoted value up to its closing quote (triple quotes too),
// a YAML block scalar, or anything else to the line's end (or , } ; &).
// nullopt when no ':' or '=' follows: "tokenFile" or prose.
std::optional<Span> value_after_key(std::string_view text, std::size_t at, std::size_t key_indent) {
  std::size_t i = at;
  if (text.substr(i).starts_with("\\\"")) {
    i += 2;
  } else if (i < text.size() && (text[i] == '"' || text[i] == '\'')) {
    ++i;
  }
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  if (i >= text.size() || (text[i] != ':' && text[i] != '=')) return std::nullopt;
  ++i;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  const std::string_view rest = text.substr(i);
  for (std::string_view quote : {"\"\"\"", "'''", "\\\"", "\"", "'"}) {
    if (!rest.starts_with(quote)) continue;
    const std::size_t begin = i + quote.size();
    std::size_t end = begin;
    while (end < text.size() && !text.substr(end).starts_with(quote)) {
      if (quote.size() == 1 && text[end] == '\n') break;
      end += (quote == "\"" && text[end] == '\\') ? 2 : 1;
    }
    return Span{begin, std::min(end, text.size())};
  }
  if (!rest.empty() && (rest[0] == '|' || rest[0] == '>')) return block_scalar(text, i, key_indent);
  // A whole object or list: to its closing bracket, strings stepped over.
  if (!rest.empty() && (rest[0] == '{' || rest[0] == '[')) return bracketed(text, i);
  // YAML's value on the lines below the key, indented deeper.
  if (rest.empty() || rest[0] == '\n' || rest[0] == '\r') return block_scalar(text, i, key_indent);
  std::size_t end = i;
  while (end < text.size() && text[end] != '\n' && text[end] != '\r' && text[end] != ',' && text[end] != '}' &&
         text[end] != ';' && text[end] != '&') {
    ++end;
  }
  while (end > i && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  return Span{i, end};
}

// In "scheme://user:password@host": the password, up to the '@' (none
// of / @ blanks or quotes between "://" and it).
std::optional<Span> url_password(std::string_view text, std::size_t after_scheme) {
  std::size_t at = after_scheme;
  while (at < text.size() && std::string_view("/@ \t\r\n\"'<>").find(text[at]) == std::string_view::npos) ++at;
  if (at >= text.size() || text[at] != '@') return std::nullopt;
  const std::size_t colon = text.substr(after_scheme, at - after_scheme).find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  return Span{after_scheme + colon + 1, at};
}

// After "Bearer " or "Basic ": the credentials, to the next blank, quote
// or line end.
Span credentials(std::string_view text, std::size_t at) {
  std::size_t end = at;
  while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '\n' && text[end] != '\r' &&
         text[end] != '"' && text[end] != '\'' && text[end] != '\\' && text[end] != ',') {
    ++end;
  }
  return {at, end};
}

// An armour line's marker naming a private key: PEM's "-----BEGIN RSA
// PRIVATE KEY-----", OpenSSH's "-----BEGIN OPENSSH PRIVATE KEY-----",
// PGP's "-----BEGIN PGP PRIVATE KEY BLOCK-----"; `kind` is "BEGIN" or
// "END". Where it starts and ends in `text` (from `from` on).
struct Marker {
  std::size_t begin;
  std::size_t end;
};
std::optional<Marker> private_key_marker(std::string_view text, std::string_view kind, std::size_t from) {
  const std::string opener = "-----" + std::string(kind) + " ";
  for (std::size_t at = text.find(opener, from); at != std::string_view::npos; at = text.find(opener, at + 1)) {
    const std::size_t label = at + opener.size();
    const std::size_t close = text.find("-----", label);
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view name = text.substr(label, close - label);
    if (name.size() <= 40 && name.find("PRIVATE KEY") != std::string_view::npos) return Marker{at, close + 5};
  }
  return std::nullopt;
}

// Private keys, line by line: what lies between a BEGIN and an END marker
// becomes one "<redacted>", also where both are on one line (a key in a
// JSON string, its line breaks escaped) or the key's text follows the
// BEGIN marker on its line; a key without its END runs to the text's
// end; an END whose BEGIN is not in the text (a log's tail) hides
// everything before it.
std::string without_private_keys(std::string_view text, std::size_t& count) {
  std::string out;
  bool inside = false;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t next = text.find('\n', at);
    next = next == std::string_view::npos ? text.size() : next + 1;
    std::string_view line = text.substr(at, next - at);
    at = next;
    if (inside) {
      const std::optional<Marker> end = private_key_marker(line, "END", 0);
      if (!end) continue;
      inside = false;
      line = line.substr(end->begin);
      out.append(line.substr(0, end->end - end->begin));
      line = line.substr(end->end - end->begin);
    } else if (const std::optional<Marker> end = private_key_marker(line, "END", 0);
               end && !private_key_marker(line.substr(0, end->begin), "BEGIN", 0)) {
      out.assign(kRedacted);
      out += '\n';
      ++count;
      out.append(line.substr(end->begin, end->end - end->begin));
      line = line.substr(end->end);
    }
    // The rest of the line: keys that begin (and perhaps end) on it.
    while (const std::optional<Marker> begin = private_key_marker(line, "BEGIN", 0)) {
      out.append(line.substr(0, begin->end));
      ++count;
      const std::optional<Marker> end = private_key_marker(line, "END", begin->end);
      if (!end) {
        out += '\n';
        out.append(kRedacted);
        out += '\n';
        inside = true;
        line = {};
        break;
      }
      out.append(kRedacted);
      out.append(line.substr(end->begin, end->end - end->begin));
      line = line.substr(end->end);
    }
    out.append(line);
  }
  return out;
}

}  // namespace

Redacted redact_secrets(std::string_view input) {
  Redacted result;
  const std::string unkeyed = without_private_keys(input, result.values);
  // A view: a substr of the string would copy the rest of the text at every
  // character, quadratic in its size.
  const std::string_view text = unkeyed;
  LineStarts line_starts(text);
  std::string& out = result.text;
  out.reserve(text.size());
  std::size_t copied = 0;
  std::size_t i = 0;
  const auto replace = [&](Span span) {
    if (span.end <= span.begin || text.substr(span.begin, span.end - span.begin) == kRedacted) {
      return;
    }
    out.append(text, copied, span.begin - copied);
    out.append(kRedacted);
    copied = span.end;
    ++result.values;
  };
  while (i < text.size()) {
    if (starts_word(text, i) && (matches_at(text, i, kBearer) || text.substr(i).starts_with(kBasic))) {
      const std::size_t at = i + (matches_at(text, i, kBearer) ? kBearer.size() : kBasic.size());
      const Span span = credentials(text, at);
      replace(span);
      i = std::max(span.end, at);
      continue;
    }
    std::string_view word;
    for (std::string_view candidate : kSecretWords) {
      if (matches_at(text, i, candidate)) {
        word = candidate;
        break;
      }
    }
    for (std::string_view whole : kWholeKeys) {
      if (!word.empty() || !matches_at(text, i, whole) || !starts_word(text, i)) continue;
      if (i + whole.size() >= text.size() || !is_key_char(text[i + whole.size()])) word = whole;
    }
    if (word.empty() && text.substr(i).starts_with("://")) {
      if (const std::optional<Span> password = url_password(text, i + 3)) {
        replace(*password);
        i = password->end;
        continue;
      }
    }
    if (word.empty()) {
      ++i;
      continue;
    }
    // The rest of the key: "tokenFile" is a path, "token_data" a secret.
    std::size_t key_end = i + word.size();
    while (key_end < text.size() && is_key_char(text[key_end])) ++key_end;
    const std::string_view tail = text.substr(i + word.size(), key_end - i - word.size());
    if (tail.find("file") != std::string_view::npos || tail.find("File") != std::string_view::npos ||
        tail.find("path") != std::string_view::npos || tail.find("Path") != std::string_view::npos) {
      i = key_end;
      continue;
    }
    // The key's line is i's: no newline is a key character.
    const std::optional<Span> span =
        value_after_key(text, key_end, indentation_of_line(text, line_starts.of(i)));
    if (!span) {
      i = key_end;
      continue;
    }
    replace(*span);
    i = std::max(span->end, key_end);
  }
  out.append(text, copied, std::string::npos);
  return result;
}

}  // namespace wincni::hnsctl::collect
