#include "wincni/cni/config_fields.hpp"

#include <cmath>

#include <fmt/format.h>

#include "wincni/cni/json_keys.hpp"

namespace wincni::cni {

namespace {

using Json = FieldReader::Json;

// 2^63: the first double past every int64 (INT64_MAX itself rounds up to it).
constexpr double kInt64Bound = 9223372036854775808.0;

// A string field that `parse` turns into a value (nullopt when it cannot);
// "" counts as absent.
template <typename Parse>
auto read_parsed(const FieldReader& reader, const Json& object, std::string_view key, std::string_view path,
                 Parse parse, std::string_view what) -> decltype(parse(std::string_view())) {
  const auto text = reader.read_string(object, key, path);
  if (!text || text->empty()) return std::nullopt;
  auto parsed = parse(*text);
  if (!parsed) reader.fail(FieldReader::join_path(path, key), fmt::format("\"{}\" is not {}", *text, what));
  return parsed;
}

}  // namespace

void FieldReader::fail(std::string_view path, std::string_view problem) const {
  throw Error(code_, fmt::format("{}: {}", path, problem));
}

std::string FieldReader::join_path(std::string_view parent, std::string_view key) {
  return parent.empty() ? std::string(key) : fmt::format("{}.{}", parent, key);
}

std::string FieldReader::index_path(std::string_view parent, std::size_t index) {
  return fmt::format("{}[{}]", parent, index);
}

const Json* FieldReader::find(const Json& object, std::string_view key) {
  const Json* value = find_key(object, key);
  return value == nullptr || value->is_null() ? nullptr : value;
}

void FieldReader::fail_type(std::string_view path, std::string_view expected, const Json& value) const {
  if (wording_ == Mismatch::kExpected) fail(path, fmt::format("expected {}", expected));
  fail(path, fmt::format("must be {}, not {}", expected, value.type_name()));
}

const Json* FieldReader::typed(const Json& object, std::string_view key, std::string_view path,
                               bool (Json::*is)() const noexcept, std::string_view expected) const {
  const Json* value = find(object, key);
  if (value != nullptr && !(value->*is)()) fail_type(join_path(path, key), expected, *value);
  return value;
}

std::optional<std::string> FieldReader::read_string(const Json& object, std::string_view key,
                                                    std::string_view path) const {
  const Json* value = typed(object, key, path, &Json::is_string, "a string");
  if (value == nullptr) return std::nullopt;
  return value->get<std::string>();
}

std::optional<bool> FieldReader::read_bool(const Json& object, std::string_view key, std::string_view path) const {
  const Json* value = typed(object, key, path, &Json::is_boolean, "true or false");
  if (value == nullptr) return std::nullopt;
  return value->get<bool>();
}

std::optional<std::int64_t> FieldReader::read_integer(const Json& object, std::string_view key, std::string_view path,
                                                      std::int64_t min, std::int64_t max) const {
  const Json* value = typed(object, key, path, &Json::is_number, "a number");
  if (value == nullptr) return std::nullopt;
  const auto out_of_range = [&] {
    fail(join_path(path, key), fmt::format("{} is not in {}-{}", value->dump(), min, max));
  };
  std::int64_t number = 0;
  if (value->is_number_unsigned()) {
    // Compared as unsigned: past INT64_MAX the signed value would wrap.
    const auto unsigned_number = value->get<std::uint64_t>();
    if (max < 0 || unsigned_number > static_cast<std::uint64_t>(max)) out_of_range();
    number = static_cast<std::int64_t>(unsigned_number);
  } else if (value->is_number_integer()) {
    number = value->get<std::int64_t>();
  } else {
    const double real = value->get<double>();
    if (std::floor(real) != real) fail(join_path(path, key), fmt::format("{} is not a whole number", value->dump()));
    // Out of int64's range the conversion below would be undefined.
    if (real < -kInt64Bound || real >= kInt64Bound) out_of_range();
    number = static_cast<std::int64_t>(real);
  }
  if (number < min || number > max) out_of_range();
  return number;
}

std::optional<double> FieldReader::read_number(const Json& object, std::string_view key, std::string_view path) const {
  const Json* value = typed(object, key, path, &Json::is_number, "a number");
  if (value == nullptr) return std::nullopt;
  return value->get<double>();
}

std::optional<IpAddress> FieldReader::read_address(const Json& object, std::string_view key,
                                                   std::string_view path) const {
  return read_parsed(*this, object, key, path, IpAddress::parse, "an IP address");
}

std::optional<IpPrefix> FieldReader::read_prefix(const Json& object, std::string_view key,
                                                 std::string_view path) const {
  return read_parsed(*this, object, key, path, IpPrefix::parse, "an IP prefix (address/length)");
}

const Json* FieldReader::read_array(const Json& object, std::string_view key, std::string_view path) const {
  return typed(object, key, path, &Json::is_array, "an array");
}

const Json* FieldReader::read_object(const Json& object, std::string_view key, std::string_view path) const {
  return typed(object, key, path, &Json::is_object, "an object");
}

const std::string& FieldReader::expect_string(const Json& value, std::string_view path) const {
  if (!value.is_string()) fail_type(path, "a string", value);
  return value.get_ref<const std::string&>();
}

const Json& FieldReader::expect_array(const Json& value, std::string_view path) const {
  if (!value.is_array()) fail_type(path, "an array", value);
  return value;
}

const Json& FieldReader::expect_object(const Json& value, std::string_view path) const {
  if (!value.is_object()) fail_type(path, "an object", value);
  return value;
}

}  // namespace wincni::cni
