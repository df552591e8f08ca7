#pragma once
// Reading HNS JSON: keys match case-insensitively (HNS writes "ID", some
// builds "Id"; Go clients accept both), null counts as absent, and a value of
// the wrong type raises SchemaError naming the field.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/hns/guid.hpp"
#include "wincni/hns/schema/schema_error.hpp"

namespace wincni::hns::json_io {

using Json = nlohmann::json;

// nullptr when absent or null.
const Json* field(const Json& object, std::string_view key);

std::string read_string(const Json& object, std::string_view key);
bool read_bool(const Json& object, std::string_view key);
std::uint64_t read_unsigned(const Json& object, std::string_view key, std::uint64_t max);
std::vector<std::string> read_strings(const Json& object, std::string_view key);
// A GUID field; the null GUID when absent or "".
Guid read_guid(const Json& object, std::string_view key);
// An object field, or an empty object when absent.
const Json& read_object(const Json& object, std::string_view key);
// An array field, or an empty array when absent.
const Json& read_array(const Json& object, std::string_view key);

template <typename Unsigned>
Unsigned read_uint(const Json& object, std::string_view key) {
  return static_cast<Unsigned>(read_unsigned(object, key, std::numeric_limits<Unsigned>::max()));
}

// SchemaError(Type) naming `what` unless `value` is an object.
void require_object(const Json& value, std::string_view what);

// Parses text that must hold a JSON object; SchemaError(Type) otherwise.
Json parse_object(std::string_view text, std::string_view what);

// Writers leave out empty values, as Go's omitempty does on the HNS side.
void put_string(Json& object, std::string_view key, const std::string& value);
void put_strings(Json& object, std::string_view key, const std::vector<std::string>& values);
template <typename Unsigned>
void put_uint(Json& object, std::string_view key, Unsigned value) {
  if (value != 0) object[std::string(key)] = value;
}
// Left out when null.
void put_guid(Json& object, std::string_view key, const Guid& id);
inline void put_bool(Json& object, std::string_view key, bool value) {
  if (value) object[std::string(key)] = true;
}

}  // namespace wincni::hns::json_io
