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

TEST_CASE("redaction: keys in JSON strings, PGP keys, URLs' passwords, connection strings, values below or in brackets") {
  const auto redacted = [](std::string_view text) { return redact_secrets(text).text; };
  // A key in a JSON string, its line breaks escaped; the text after it stays.
  CHECK(redacted(R"({"data": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n", "x": 1})") ==
        R"({"data": "-----BEGIN PRIVATE KEY-----<redacted>-----END PRIVATE KEY-----\n", "x": 1})");
  CHECK(redacted("-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQO\n-----END PGP PRIVATE KEY BLOCK-----\nnext\n") ==
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n<redacted>\n-----END PGP PRIVATE KEY BLOCK-----\nnext\n");
  // The key's text on the BEGIN line itself.
  CHECK(redacted("-----BEGIN OPENSSH PRIVATE KEY----- b3Blbn\nc3No\n") ==
        "-----BEGIN OPENSSH PRIVATE KEY-----\n<redacted>\n");
  CHECK(redacted("proxy: https://ops:s3cret@proxy.example:8443/x") == "proxy: https://ops:<redacted>@proxy.example:8443/x");
  CHECK(redacted("see https://example.com/a@b and user@host") == "see https://example.com/a@b and user@host");
  CHECK(redacted("DefaultEndpointsProtocol=https;AccountName=a;AccountKey=abc+/==;EndpointSuffix=x") ==
        "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=<redacted>;EndpointSuffix=x");
  CHECK(redacted("https://a.blob.core.windows.net/c?sv=2022&sig=AbC%3D&se=1") ==
        "https://a.blob.core.windows.net/c?sv=2022&sig=<redacted>&se=1");
  CHECK(redacted("Server=db;Uid=ops;Pwd=p4ss;") == "Server=db;Uid=ops;Pwd=<redacted>;");
  CHECK(redacted(R"({"apiKey":"k1","privateKey":"k2","api_key":"k3"})") ==
        R"({"apiKey":"<redacted>","privateKey":"<redacted>","api_key":"<redacted>"})");
  CHECK(redacted("password:\n  p4ss\nuser: ops\n") == "password:<redacted>\nuser: ops\n");
  CHECK(redacted(R"({"credentials": {"user": "a", "key": "b}"}, "x": 1})") == R"({"credentials": <redacted>, "x": 1})");
  CHECK(redacted(R"({"tokens": ["a", "b"], "x": 1})") == R"({"tokens": <redacted>, "x": 1})");
  // Not secrets: a file's path, a password-less URL, an empty YAML value before a sibling.
  CHECK(redacted(R"({"privateKeyFile": "C:\\k\\key.pem"})") == R"({"privateKeyFile": "C:\\k\\key.pem"})");
  CHECK(redacted("token:\nuser: ops\n") == "token:\nuser: ops\n");
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
