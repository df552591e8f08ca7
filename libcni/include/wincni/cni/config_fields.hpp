#pragma once
// Typed reads of a plugin's own network-config fields. Keys match
// case-insensitively, as Go's decoder matches struct fields (find_key); null
// counts as absent, as in Go. A value of the wrong type or form is the
// operator's mistake: a cni::Error naming the field by its path, e.g.
// "runtimeConfig.portMappings[1].protocol: must be a string, not number".
//
// The error code is the reader's: 7 (invalid network config) unless a
// plugin's documented codes say otherwise, so a call site names only the
// field:
//
//   auto port = cni::kConfigFields.read_integer(entry, "hostPort", path, 1, 65535);

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "wincni/cni/error.hpp"
#include "wincni/cni/ip.hpp"

namespace wincni::cni {

class FieldReader {
 public:
  using Json = nlohmann::json;

  // How a value of the wrong JSON type is reported.
  enum class Mismatch {
    kMustBeNot,  // "ipam.dataDir: must be a string, not boolean"
    kExpected,   // "ipam.dataDir: expected a string" (host-local's, pinned by its tests)
  };

  constexpr FieldReader() = default;
  constexpr explicit FieldReader(int code, Mismatch wording = Mismatch::kMustBeNot) : code_(code), wording_(wording) {}

  constexpr int code() const { return code_; }

  // cni::Error(code(), "<path>: <problem>").
  [[noreturn]] void fail(std::string_view path, std::string_view problem) const;

  // "parent.key", or "key" at the top level (an empty parent).
  static std::string join_path(std::string_view parent, std::string_view key);
  // "parent[index]".
  static std::string index_path(std::string_view parent, std::size_t index);

  // nullptr when `object` is not an object, or the key is absent or null.
  static const Json* find(const Json& object, std::string_view key);

  // Each read_* names the field join_path(path, key) in its errors and
  // returns nullopt / nullptr when the field is absent.
  std::optional<std::string> read_string(const Json& object, std::string_view key, std::string_view path) const;
  std::optional<bool> read_bool(const Json& object, std::string_view key, std::string_view path) const;
  // A whole JSON number within [min, max]; 2.0 counts as 2, 2.5 does not.
  std::optional<std::int64_t> read_integer(const Json& object, std::string_view key, std::string_view path,
                                           std::int64_t min, std::int64_t max) const;
  std::optional<double> read_number(const Json& object, std::string_view key, std::string_view path) const;
  // An address field; "" counts as absent.
  std::optional<IpAddress> read_address(const Json& object, std::string_view key, std::string_view path) const;
  // A prefix field ("10.0.0.0/8"); "" counts as absent. Host bits are kept.
  std::optional<IpPrefix> read_prefix(const Json& object, std::string_view key, std::string_view path) const;
  // The array or object itself, for the caller to walk.
  const Json* read_array(const Json& object, std::string_view key, std::string_view path) const;
  const Json* read_object(const Json& object, std::string_view key, std::string_view path) const;

  // The same type checks for a value that has no key of its own (an array's
  // element), named by `path` itself.
  const std::string& expect_string(const Json& value, std::string_view path) const;
  const Json& expect_array(const Json& value, std::string_view path) const;
  const Json& expect_object(const Json& value, std::string_view path) const;

 private:
  [[noreturn]] void fail_type(std::string_view path, std::string_view expected, const Json& value) const;
  const Json* typed(const Json& object, std::string_view key, std::string_view path, bool (Json::*is)() const noexcept,
                    std::string_view expected) const;

  int code_ = kInvalidNetworkConfig;
  Mismatch wording_ = Mismatch::kMustBeNot;
};

// The reader of every plugin's config: error 7, "must be a string, not
// boolean". One object, so files that read configs do not each define one.
inline constexpr FieldReader kConfigFields;

}  // namespace wincni::cni
