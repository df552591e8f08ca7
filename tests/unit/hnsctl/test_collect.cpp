// The support bundle's two formats of its own: the secret redaction every
// text passes, and the zip writer (its CRC-32 against the check value every
// CRC-32 catalogue gives; the e2e suite reads whole archives).

#include <doctest/doctest.h>

#include "collect/secret_redaction.hpp"
#include "collect/zip_archive.hpp"

using namespace wincni::hnsctl::collect;

TEST_CASE("redaction: values after keys naming a secret, in JSON, YAML, TOML and headers") {
  const auto redacted = [](std::string_view text) { return redact_secrets(text).text; };
  CHECK(redacted(R"({"token": "abc", "name":"cbr0"})") == R"({"token": "<redacted>", "name":"cbr0"})");
  CHECK(redacted(R"({"bearerToken":"a\"b","x":1})") == R"({"bearerToken":"<redacted>","x":1})");
  CHECK(redacted("users:\n- user:\n    token: eyJh.b.c\n    client-key-data: LS0t\n") ==
        "users:\n- user:\n    token: <redacted>\n    client-key-data: <redacted>\n");
  CHECK(redacted("  password = 'p'\n  auth = \"dXNlcjpwYXNz\"\n  username = \"ops\"\n") ==
        "  password = '<redacted>'\n  auth = \"<redacted>\"\n  username = \"ops\"\n");
  CHECK(redacted("GET / Authorization: Bearer abc.def next") == "GET / Authorization: Bearer <redacted> next");
  CHECK(redacted("x\n-----BEGIN EC PRIVATE KEY-----\nMHc\nAwE\n-----END EC PRIVATE KEY-----\ny") ==
        "x\n-----BEGIN EC PRIVATE KEY-----\n<redacted>\n-----END EC PRIVATE KEY-----\ny");
  // A log's tail that starts inside a key; a key without its end.
  CHECK(redacted("MHc\nAwE\n-----END RSA PRIVATE KEY-----\nafter") ==
        "<redacted>\n-----END RSA PRIVATE KEY-----\nafter");
  CHECK(redacted("-----BEGIN PRIVATE KEY-----\nMHc\nAwE") == "-----BEGIN PRIVATE KEY-----\n<redacted>\n");
  CHECK(redact_secrets(R"({"Password":"a","secret":"b"})").values == 2);
}

TEST_CASE("redaction: triple quotes, escaped JSON in a log, Basic auth, YAML values with blanks and blocks") {
  const auto redacted = [](std::string_view text) { return redact_secrets(text).text; };
  CHECK(redacted("password = '''p a s s'''\nx = 1") == "password = '''<redacted>'''\nx = 1");
  CHECK(redacted("identitytoken = \"\"\"t\"\"\"") == "identitytoken = \"\"\"<redacted>\"\"\"");
  CHECK(redacted(R"(stdin: "{\"token\":\"abc\",\"name\":\"cbr0\"}")") ==
        R"(stdin: "{\"token\":\"<redacted>\",\"name\":\"cbr0\"}")");
  CHECK(redacted("headers = {Authorization = [\"Basic dXNlcjpwYXNz\"]}") ==
        "headers = {Authorization = [\"Basic <redacted>\"]}");
  CHECK(redacted("Authorization: Basic dXNlcjpwYXNz\n") == "Authorization: Basic <redacted>\n");
  CHECK(redacted("  password: my long pass phrase\n  user: ops\n") == "  password: <redacted>\n  user: ops\n");
  CHECK(redacted("token: |\n  line one\n  line two\nuser: ops\n") == "token: <redacted>\nuser: ops\n");
}

TEST_CASE("redaction: what only looks like a secret's key stays") {
  for (std::string_view text : {R"({"tokenFile": "C:\\k\\token"})", "author: someone", "a token was refused",
                                "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
                                R"({"kubeconfig":"C:\\etc\\kubeconfig","passwordPath":"/p"})"}) {
    CAPTURE(text);
    CHECK(redact_secrets(text).text == text);
    CHECK(redact_secrets(text).values == 0);
  }
  // Redacting twice changes nothing more.
  const std::string once = redact_secrets(R"({"token":"abc"})").text;
  CHECK(redact_secrets(once).text == once);
  CHECK(redact_secrets(once).values == 0);
}

// Hostile shapes of a few MiB each. The redaction once copied the rest of
// the text at every character and searched back to the line's start at
// every key: quadratic, so that 200 000 '[' took 72 s under the sanitizers
// and 17-29 s under Wine (issue 52). At these sizes a quadratic pass would
// run for hours, and the suite's timeout fails it; linear, each takes
// milliseconds. The time per MiB of each shape is scripts/bench.sh's
// "collect" part.
TEST_CASE("redaction: one pass over deep nesting, a long line of keys, many short lines and unclosed quotes") {
  constexpr std::size_t kMiB = 1 << 20;
  CHECK(redact_secrets(std::string(4 * kMiB, '[')).values == 0);

  std::string keys;
  while (keys.size() < 4 * kMiB) keys += "token=x,";
  const Redacted on_one_line = redact_secrets(keys);
  CHECK(on_one_line.values == keys.size() / 8);
  CHECK(on_one_line.text.size() == keys.size() / 8 * std::string_view("token=<redacted>,").size());

  std::string blocks;
  while (blocks.size() < 4 * kMiB) blocks += "  token: |\n    v\n";
  CHECK(redact_secrets(blocks).values == blocks.size() / 17);

  // A quote never closed: its value runs to the end, read once.
  const std::string unclosed = "password = \"\"\"" + std::string(4 * kMiB, 'x');
  CHECK(redact_secrets(unclosed).text == "password = \"\"\"<redacted>");

  std::string pem;
  while (pem.size() < 4 * kMiB) pem += "-----END RSA PRIVATE KEY-----\n";
  CHECK(redact_secrets(pem).text.size() < 64);
}

TEST_CASE("zip: CRC-32's check value; an archive's size is its headers and contents") {
  CHECK(crc32("123456789") == 0xCBF43926u);
  CHECK(crc32("") == 0u);
  ZipArchive archive(0);
  archive.add("a/b.txt", "hello");
  archive.add("c", "");
  CHECK(archive.entries() == 2);
  // Two local headers (30 + name) and contents, two central entries
  // (46 + name), the end record (22).
  CHECK(archive.finish().size() == (30 + 7 + 5) + (30 + 1) + (46 + 7) + (46 + 1) + 22);
}
