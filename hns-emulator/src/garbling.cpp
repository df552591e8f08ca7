#include "garbling.hpp"

namespace wincni::hns::emulator {

std::string garbled_text(std::string_view answer) {
  // The last character of a JSON object or array is ASCII, so the cut never
  // splits a UTF-8 sequence.
  if (!answer.empty()) answer.remove_suffix(1);
  return std::string(answer);
}

nlohmann::json garbled_shape(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::string:
      return nlohmann::json::array({value});
    case nlohmann::json::value_t::boolean:
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
      return value.dump();
    case nlohmann::json::value_t::array: {
      // An empty list must not come through as it was.
      if (value.empty()) return nlohmann::json::array({nullptr});
      nlohmann::json items = nlohmann::json::array();
      for (const auto& item : value) items.push_back(garbled_shape(item));
      return items;
    }
    case nlohmann::json::value_t::object: {
      nlohmann::json fields = nlohmann::json::object();
      for (const auto& [key, field] : value.items()) fields[key] = garbled_shape(field);
      return fields;
    }
    default:
      return value;
  }
}

std::string garbled(std::string_view answer, Garbling how) {
  if (how == Garbling::Text) return garbled_text(answer);
  return garbled_shape(nlohmann::json::parse(answer)).dump();
}

}  // namespace wincni::hns::emulator
