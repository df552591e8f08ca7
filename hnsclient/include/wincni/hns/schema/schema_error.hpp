#pragma once
// Raised when HNS JSON does not fit the schema: a field of the wrong JSON
// type, or a value that cannot be what the field names (an address, a GUID).

#include <stdexcept>
#include <string>

namespace wincni::hns {

class SchemaError : public std::runtime_error {
 public:
  enum class Kind {
    Type,         // wrong JSON type, or not JSON at all
    Value,        // right type, impossible value (port 70000, a bad GUID)
    Address,      // an IP address or prefix that does not parse
    Policy,       // a policy whose settings do not fit its type
    NetworkType,  // a network Type HNS does not have
  };

  SchemaError(Kind kind, std::string field, const std::string& problem)
      : std::runtime_error("\"" + field + "\": " + problem), kind_(kind), field_(std::move(field)), problem_(problem) {}

  Kind kind() const noexcept { return kind_; }
  const std::string& field() const noexcept { return field_; }
  const std::string& problem() const noexcept { return problem_; }

 private:
  Kind kind_;
  std::string field_;
  std::string problem_;
};

}  // namespace wincni::hns
