#include "collect/secret_redaction.hpp"

#include <array>

namespace wincni::hnsctl::collect {

namespace {

// Lower case; matched ignoring ASCII case, anywhere in a key
// ("bearerToken", "etcd_password", "client-key-data").
constexpr std::array<std::string_view, 7> kSecretWords{"token",  "password",        "passwd",     "secret",
                                                       "bearer", "client-key-data", "credentials"};
// Matched only as a whole key: containerd's registry `auth` (base64 of
// user:password); "author" or "Authorization" are not it.
constexpr std::string_view kWholeKeyAuth = "auth";
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
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

// Where the value after a key ending at `at` starts: past a closing quote,
// blanks, ':' or '=' (or "Bearer " itself), blanks and an opening quote;
// npos when no separator follows, so "tokenFile" or prose is left alone.
std::size_t value_start(std::string_view text, std::size_t at, bool bearer, char& quote) {
  quote = '\0';
  std::size_t i = at;
  if (bearer) {
    if (i >= text.size() || text[i] != ' ') return std::string_view::npos;
    while (i < text.size() && text[i] == ' ') ++i;
    return i;
  }
  if (i < text.size() && (text[i] == '"' || text[i] == '\'')) ++i;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  if (i >= text.size() || (text[i] != ':' && text[i] != '=')) return std::string_view::npos;
  ++i;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  if (i < text.size() && (text[i] == '"' || text[i] == '\'')) quote = text[i++];
  return i;
}

std::size_t value_end(std::string_view text, std::size_t start, char quote) {
  std::size_t i = start;
  if (quote != '\0') {
    while (i < text.size() && text[i] != quote && text[i] != '\n') i += (text[i] == '\\' && quote == '"') ? 2 : 1;
    return std::min(i, text.size());
  }
  while (i < text.size() && text[i] != '\n' && text[i] != '\r' && text[i] != ',' && text[i] != '}' && text[i] != ' ' &&
         text[i] != ';' && text[i] != '&') {
    ++i;
  }
  return i;
}

// PEM private keys: everything between the BEGIN and END lines.
std::string without_private_keys(std::string_view text, std::size_t& count) {
  std::string out;
  std::size_t from = 0;
  while (true) {
    const std::size_t begin = text.find("-----BEGIN ", from);
    if (begin == std::string_view::npos) break;
    const std::size_t begin_end = text.find("-----", begin + 11);
    if (begin_end == std::string_view::npos) break;
    const std::string_view label = text.substr(begin + 11, begin_end - begin - 11);
    const std::size_t end = text.find("-----END ", begin_end + 5);
    if (label.find("PRIVATE KEY") == std::string_view::npos || end == std::string_view::npos) {
      out.append(text.substr(from, begin_end + 5 - from));
      from = begin_end + 5;
      continue;
    }
    out.append(text.substr(from, begin_end + 5 - from));
    out.append(kRedacted);
    ++count;
    from = end;
  }
  out.append(text.substr(from));
  return out;
}

}  // namespace

Redacted redact_secrets(std::string_view input) {
  Redacted result;
  const std::string text = without_private_keys(input, result.values);
  std::string& out = result.text;
  out.reserve(text.size());
  std::size_t copied = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::string_view word;
    for (std::string_view candidate : kSecretWords) {
      if (matches_at(text, i, candidate)) {
        word = candidate;
        break;
      }
    }
    if (word.empty() && matches_at(text, i, kWholeKeyAuth) && (i == 0 || !is_key_char(text[i - 1])) &&
        (i + kWholeKeyAuth.size() >= text.size() || !is_key_char(text[i + kWholeKeyAuth.size()]))) {
      word = kWholeKeyAuth;
    }
    if (word.empty()) {
      ++i;
      continue;
    }
    // The rest of the key: "tokenFile" is a path, "token_data" a secret.
    std::size_t key_end = i + word.size();
    const bool bearer = word == "bearer";
    if (!bearer) {
      while (key_end < text.size() && is_key_char(text[key_end]) && text[key_end] != '.') ++key_end;
      const std::string_view tail = std::string_view(text).substr(i + word.size(), key_end - i - word.size());
      if (tail.find("file") != std::string_view::npos || tail.find("File") != std::string_view::npos ||
          tail.find("path") != std::string_view::npos || tail.find("Path") != std::string_view::npos) {
        i = key_end;
        continue;
      }
    }
    char quote = '\0';
    const std::size_t start = value_start(text, key_end, bearer, quote);
    if (start == std::string_view::npos) {
      i = key_end;
      continue;
    }
    const std::size_t end = value_end(text, start, quote);
    if (end > start && std::string_view(text).substr(start, end - start) != kRedacted) {
      out.append(text, copied, start - copied);
      out.append(kRedacted);
      copied = end;
      ++result.values;
    }
    i = std::max(end, key_end);
  }
  out.append(text, copied, std::string::npos);
  return result;
}

}  // namespace wincni::hnsctl::collect
