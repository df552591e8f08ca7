#include <doctest/doctest.h>

#include <string>

#include "wincni/cni/error.hpp"
#include "wincni/cni/stdin_text.hpp"

using wincni::cni::stdin_as_utf8;

namespace {

// `text` (ASCII or BMP code points given as UTF-16 units) as UTF-16 with a
// byte-order mark.
std::string utf16(const std::u16string& text, bool little_endian) {
  std::string out = little_endian ? std::string("\xFF\xFE") : std::string("\xFE\xFF");
  for (char16_t unit : text) {
    const char high = static_cast<char>(unit >> 8);
    const char low = static_cast<char>(unit & 0xFF);
    out += little_endian ? std::string{low, high} : std::string{high, low};
  }
  return out;
}

int code_of(const std::string& bytes) {
  try {
    stdin_as_utf8(bytes);
  } catch (const wincni::cni::Error& e) {
    return static_cast<int>(e.code());
  }
  return 0;
}

}  // namespace

TEST_CASE("stdin: plain UTF-8 passes unchanged; a UTF-8 byte-order mark is dropped") {
  const std::string config = R"({"cniVersion":"0.2.0","name":"flannel.4096"})";
  CHECK(stdin_as_utf8(config) == config);
  CHECK(stdin_as_utf8("\xEF\xBB\xBF" + config) == config);
  CHECK(stdin_as_utf8("").empty());
  CHECK(stdin_as_utf8("\xEF\xBB").empty() == false);  // not a whole mark: left for the JSON reader to refuse
}

TEST_CASE("stdin: UTF-16 in either byte order becomes UTF-8, outside the ASCII range too") {
  const std::u16string text = u"{\"name\":\"r\u00e9seau-\u20ac\"}";
  const std::string expected = "{\"name\":\"r\xC3\xA9seau-\xE2\x82\xAC\"}";
  CHECK(stdin_as_utf8(utf16(text, true)) == expected);
  CHECK(stdin_as_utf8(utf16(text, false)) == expected);
  // A surrogate pair: U+1F600.
  CHECK(stdin_as_utf8(utf16(u"\"\U0001F600\"", true)) == "\"\xF0\x9F\x98\x80\"");
}

TEST_CASE("stdin: broken UTF-16 is a decoding failure (6)") {
  CHECK(code_of(utf16(u"{}", true) + "x") == 6);                      // odd length
  CHECK(code_of(utf16(std::u16string(1, u'\xD83D'), true)) == 6);     // cut pair
  CHECK(code_of(utf16(std::u16string{u'\xDE00', u'a'}, true)) == 6);  // lone low surrogate
  // Named as the config, not as stdin: hnsctl explain decodes files with it.
  CHECK_THROWS_WITH(stdin_as_utf8(utf16(u"{}", true) + "x"),
                    "the config starts with a UTF-16 byte-order mark but has an odd number of bytes");
}
