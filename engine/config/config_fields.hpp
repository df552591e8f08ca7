#pragma once
// Typed reads of network-config fields. Keys match case-insensitively, as
// Go's decoder matches struct fields; null counts as absent, as in Go. A
// value of the wrong type or form is the operator's mistake: cni::Error 7
// (invalid network config) naming the field by its path, e.g.
// "runtimeConfig.portMappings[1].protocol".

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "wincni/cni/error.hpp"
#include "wincni/cni/ip.hpp"

namespace wincni::engine::config_fields {

using Json = nlohmann::json;

[[noreturn]] void fail(std::string_view path, std::string_view problem);

std::string join_path(std::string_view parent, std::string_view key);
std::string index_path(std::string_view parent, size_t index);

// nullptr when `object` is not an object, or the key is absent or null.
const Json* find(const Json& object, std::string_view key);

std::optional<std::string> read_string(const Json& object, std::string_view key, std::string_view path);
std::optional<bool> read_bool(const Json& object, std::string_view key, std::string_view path);
// Integral JSON numbers within [min, max].
std::optional<std::int64_t> read_integer(const Json& object, std::string_view key, std::string_view path,
                                         std::int64_t min, std::int64_t max);
std::optional<double> read_number(const Json& object, std::string_view key, std::string_view path);
// An address field; "" counts as absent.
std::optional<cni::IpAddress> read_address(const Json& object, std::string_view key, std::string_view path);
// A prefix field ("10.0.0.0/8"); "" counts as absent. Host bits are kept.
std::optional<cni::IpPrefix> read_prefix(const Json& object, std::string_view key, std::string_view path);
// nullptr when absent; an error when present but not an array / object.
const Json* read_array(const Json& object, std::string_view key, std::string_view path);
const Json* read_object(const Json& object, std::string_view key, std::string_view path);

}  // namespace wincni::engine::config_fields
