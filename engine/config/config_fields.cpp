#include "config/config_fields.hpp"

#include <cmath>

#include <fmt/format.h>

#include "wincni/cni/json_keys.hpp"

namespace wincni::engine::config_fields {

void fail(std::string_view path, std::string_view problem) {
  throw cni::Error(cni::kInvalidNetworkConfig, fmt::format("{}: {}", path, problem));
}

std::string join_path(std::string_view parent, std::string_view key) {
  return parent.empty() ? std::string(key) : fmt::format("{}.{}", parent, key);
}

std::string index_path(std::string_view parent, size_t index) { return fmt::format("{}[{}]", parent, index); }

const Json* find(const Json& object, std::string_view key) {
  const Json* value = cni::find_key(object, key);
  return value == nullptr || value->is_null() ? nullptr : value;
}

namespace {

const Json* typed(const Json& object, std::string_view key, std::string_view path, bool (Json::*is)() const noexcept,
                  std::string_view expected) {
  const Json* value = find(object, key);
  if (value != nullptr && !(value->*is)()) {
    fail(join_path(path, key), fmt::format("must be {}, not {}", expected, value->type_name()));
  }
  return value;
}

}  // namespace

std::optional<std::string> read_string(const Json& object, std::string_view key, std::string_view path) {
  const Json* value = typed(object, key, path, &Json::is_string, "a string");
  if (value == nullptr) return std::nullopt;
  return value->get<std::string>();
}

std::optional<bool> read_bool(const Json& object, std::string_view key, std::string_view path) {
  const Json* value = typed(object, key, path, &Json::is_boolean, "true or false");
  if (value == nullptr) return std::nullopt;
  return value->get<bool>();
}

std::optional<std::int64_t> read_integer(const Json& object, std::string_view key, std::string_view path,
                                         std::int64_t min, std::int64_t max) {
  const Json* value = typed(object, key, path, &Json::is_number, "a number");
  if (value == nullptr) return std::nullopt;
  const auto out_of_range = [&] {
    fail(join_path(path, key), fmt::format("{} is not in {}-{}", value->dump(), min, max));
  };
  std::int64_t number = 0;
  if (value->is_number_unsigned()) {
    if (value->get<std::uint64_t>() > static_cast<std::uint64_t>(max)) out_of_range();
    number = static_cast<std::int64_t>(value->get<std::uint64_t>());
  } else if (value->is_number_integer()) {
    number = value->get<std::int64_t>();
  } else {
    const double real = value->get<double>();
    if (std::floor(real) != real) fail(join_path(path, key), fmt::format("{} is not a whole number", value->dump()));
    if (real < static_cast<double>(min) || real > static_cast<double>(max)) out_of_range();
    number = static_cast<std::int64_t>(real);
  }
  if (number < min || number > max) out_of_range();
  return number;
}

std::optional<double> read_number(const Json& object, std::string_view key, std::string_view path) {
  const Json* value = typed(object, key, path, &Json::is_number, "a number");
  if (value == nullptr) return std::nullopt;
  return value->get<double>();
}

std::optional<cni::IpAddress> read_address(const Json& object, std::string_view key, std::string_view path) {
  const auto text = read_string(object, key, path);
  if (!text || text->empty()) return std::nullopt;
  auto address = cni::IpAddress::parse(*text);
  if (!address) fail(join_path(path, key), fmt::format("\"{}\" is not an IP address", *text));
  return address;
}

std::optional<cni::IpPrefix> read_prefix(const Json& object, std::string_view key, std::string_view path) {
  const auto text = read_string(object, key, path);
  if (!text || text->empty()) return std::nullopt;
  auto prefix = cni::IpPrefix::parse(*text);
  if (!prefix) fail(join_path(path, key), fmt::format("\"{}\" is not an IP prefix (address/length)", *text));
  return prefix;
}

const Json* read_array(const Json& object, std::string_view key, std::string_view path) {
  return typed(object, key, path, &Json::is_array, "an array");
}

const Json* read_object(const Json& object, std::string_view key, std::string_view path) {
  return typed(object, key, path, &Json::is_object, "an object");
}

}  // namespace wincni::engine::config_fields
