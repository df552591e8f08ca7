#include "wincni/hns/schema/json_io.hpp"

#include "wincni/cni/json_depth.hpp"
#include "wincni/cni/json_keys.hpp"

namespace wincni::hns::json_io {
namespace {

[[noreturn]] void wrong_type(std::string_view key, std::string_view expected) {
  throw SchemaError(SchemaError::Kind::Type, std::string(key), "expected " + std::string(expected));
}

}  // namespace

const Json* field(const Json& object, std::string_view key) {
  const Json* value = cni::find_key(object, key);
  return value && !value->is_null() ? value : nullptr;
}

std::string read_string(const Json& object, std::string_view key) {
  const Json* value = field(object, key);
  if (!value) return {};
  if (!value->is_string()) wrong_type(key, "a string");
  return value->get<std::string>();
}

bool read_bool(const Json& object, std::string_view key) {
  const Json* value = field(object, key);
  if (!value) return false;
  if (!value->is_boolean()) wrong_type(key, "true or false");
  return value->get<bool>();
}

std::uint64_t read_unsigned(const Json& object, std::string_view key, std::uint64_t max) {
  const Json* value = field(object, key);
  if (!value) return 0;
  // Both signedness flavours: JSON built in C++ from an int is "signed".
  if (!value->is_number_integer() || (!value->is_number_unsigned() && value->get<std::int64_t>() < 0)) {
    wrong_type(key, "a non-negative integer");
  }
  std::uint64_t number = value->get<std::uint64_t>();
  if (number > max) {
    throw SchemaError(SchemaError::Kind::Value, std::string(key),
                      "must be at most " + std::to_string(max) + ", got " + std::to_string(number));
  }
  return number;
}

std::vector<std::string> read_strings(const Json& object, std::string_view key) {
  const Json* value = field(object, key);
  if (!value) return {};
  if (!value->is_array()) wrong_type(key, "an array of strings");
  std::vector<std::string> result;
  result.reserve(value->size());
  for (const auto& item : *value) {
    if (!item.is_string()) wrong_type(key, "an array of strings");
    result.push_back(item.get<std::string>());
  }
  return result;
}

Guid read_guid(const Json& object, std::string_view key) {
  std::string text = read_string(object, key);
  if (text.empty()) return Guid{};
  auto guid = Guid::parse(text);
  if (!guid) throw SchemaError(SchemaError::Kind::Value, std::string(key), "not a GUID: \"" + text + "\"");
  return *guid;
}

const Json& read_object(const Json& object, std::string_view key) {
  static const Json empty = Json::object();
  const Json* value = field(object, key);
  if (!value) return empty;
  if (!value->is_object()) wrong_type(key, "an object");
  return *value;
}

const Json& read_array(const Json& object, std::string_view key) {
  static const Json empty = Json::array();
  const Json* value = field(object, key);
  if (!value) return empty;
  if (!value->is_array()) wrong_type(key, "an array");
  return *value;
}

Json parse_object(std::string_view text, std::string_view what) {
  if (cni::too_deeply_nested(text)) {
    throw SchemaError(SchemaError::Kind::Type, std::string(what),
                      "nested deeper than " + std::to_string(cni::kMaxJsonNesting) + " levels");
  }
  Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    throw SchemaError(SchemaError::Kind::Type, std::string(what), "not valid JSON");
  }
  if (!parsed.is_object()) throw SchemaError(SchemaError::Kind::Type, std::string(what), "expected a JSON object");
  return parsed;
}

void require_object(const Json& value, std::string_view what) {
  if (!value.is_object()) throw SchemaError(SchemaError::Kind::Type, std::string(what), "expected an object");
}

void put_guid(Json& object, std::string_view key, const Guid& id) {
  if (!id.is_null()) object[std::string(key)] = id.str();
}

void put_string(Json& object, std::string_view key, const std::string& value) {
  if (!value.empty()) object[std::string(key)] = value;
}

void put_strings(Json& object, std::string_view key, const std::vector<std::string>& values) {
  if (!values.empty()) object[std::string(key)] = values;
}

}  // namespace wincni::hns::json_io
