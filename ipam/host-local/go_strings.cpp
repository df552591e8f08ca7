#include "go_strings.hpp"

namespace wincni::hostlocal {

namespace {
constexpr std::string_view kWhitespace = " \t\n\v\f\r";
}

std::string_view trim_space(std::string_view text) {
  const auto first = text.find_first_not_of(kWhitespace);
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(kWhitespace);
  return text.substr(first, last - first + 1);
}

std::vector<std::string> split_fields(std::string_view text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while ((pos = text.find_first_not_of(kWhitespace, pos)) != std::string_view::npos) {
    const size_t end = text.find_first_of(kWhitespace, pos);
    out.emplace_back(text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
    pos = end;
  }
  return out;
}

}  // namespace wincni::hostlocal
