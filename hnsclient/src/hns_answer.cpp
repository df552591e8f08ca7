#include "hns_answer.hpp"

#include <fmt/format.h>

#include "wincni/hns/hns_error.hpp"

namespace wincni::hns {
namespace {

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

std::string quoted_answer(std::string_view answer) {
  if (answer.empty()) return "(nothing)";
  if (answer.size() <= kQuotedAnswerBytes) return std::string(answer);
  // The message ends up in JSON: a UTF-8 sequence cut in two would not do.
  std::size_t cut = kQuotedAnswerBytes;
  while (cut > 0 && is_continuation_byte(answer[cut])) --cut;
  return fmt::format("{}... ({} bytes in all)", answer.substr(0, cut), answer.size());
}

}  // namespace

std::string unreadable_answer_text(std::string_view problem, std::string_view answer) {
  return fmt::format("HNS answered what cannot be read ({}): {}", problem, quoted_answer(answer));
}

HnsAnswer::HnsAnswer(Json value, std::string text, std::string operation, std::string object)
    : value_(std::move(value)), text_(std::move(text)), operation_(std::move(operation)), object_(std::move(object)) {}

HnsAnswer HnsAnswer::parse(std::string text, std::string operation, std::string object) {
  Json value = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  HnsAnswer answer(std::move(value), std::move(text), std::move(operation), std::move(object));
  if (answer.value_.is_discarded()) answer.raise_unreadable("not JSON");
  return answer;
}

void HnsAnswer::raise_unreadable(std::string_view problem) const {
  throw HnsError::unreadable_answer(operation_, object_, unreadable_answer_text(problem, text_));
}

}  // namespace wincni::hns
