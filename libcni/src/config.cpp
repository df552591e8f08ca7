#include "wincni/cni/config.hpp"

#include <fmt/format.h>

#include "wincni/cni/cni_env.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/json_depth.hpp"
#include "wincni/cni/json_keys.hpp"

namespace wincni::cni {

namespace {

constexpr std::string_view kUnmarshallPrefix = "error unmarshall network config: ";

Error decode_error(std::string_view why) {
  return Error(kDecodingFailure, fmt::format("{}{}", kUnmarshallPrefix, why));
}

// nlohmann's what() starts with "[json.exception.parse_error.101] "; the
// rest is the part a user can act on.
std::string without_exception_tag(const std::string& what) {
  if (!what.empty() && what.front() == '[') {
    if (const size_t close = what.find("] "); close != std::string::npos) return what.substr(close + 2);
  }
  return what;
}

const nlohmann::json& member_or_null(const nlohmann::json& document, std::string_view key) {
  static const nlohmann::json null;
  const nlohmann::json* value = find_key(document, key);
  return value != nullptr ? *value : null;
}

// A Go field of type string accepts a string or null (which leaves it "").
std::string optional_string(const nlohmann::json& document, std::string_view key) {
  const nlohmann::json* value = find_key(document, key);
  if (value == nullptr || value->is_null()) return {};
  if (!value->is_string()) throw decode_error(fmt::format("\"{}\" must be a string, not {}", key, value->type_name()));
  return value->get<std::string>();
}

void require_object_or_null(const nlohmann::json& document, std::string_view key) {
  const nlohmann::json* value = find_key(document, key);
  if (value != nullptr && !value->is_null() && !value->is_object()) {
    throw decode_error(fmt::format("\"{}\" must be an object, not {}", key, value->type_name()));
  }
}

std::vector<Attachment> read_attachments(const nlohmann::json& list, std::string_view key) {
  if (list.is_null()) return {};
  if (!list.is_array()) throw decode_error(fmt::format("\"{}\" must be an array, not {}", key, list.type_name()));
  std::vector<Attachment> attachments;
  for (const nlohmann::json& entry : list) {
    if (!entry.is_object()) {
      throw decode_error(fmt::format("\"{}\" entries must be objects, not {}", key, entry.type_name()));
    }
    attachments.push_back({optional_string(entry, "containerID"), optional_string(entry, "ifname")});
  }
  return attachments;
}

// Go's skel: an absent or empty name is 7 "missing network name"; one that
// is not a CNI name is 7 with the name as details.
std::string valid_network_name(const nlohmann::json& document) {
  std::string name = optional_string(document, "name");
  if (name.empty()) throw Error(kInvalidNetworkConfig, "missing network name");
  if (!is_valid_cni_name(name)) throw Error(kInvalidNetworkConfig, "invalid characters found in network name", name);
  return name;
}

}  // namespace

nlohmann::json parse_network_config(std::string_view text) {
  if (auto opener = too_deeply_nested(text)) {
    throw decode_error(fmt::format("invalid character '{}' exceeded max depth", *opener));
  }
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw decode_error(without_exception_tag(e.what()));
  }
  // Go decodes into a struct: null is an empty config, other non-objects fail.
  if (!document.is_object() && !document.is_null()) {
    throw decode_error(fmt::format("cannot unmarshal {} into a network config object", document.type_name()));
  }
  valid_network_name(document);
  return document;
}

NetConf NetConf::parse(std::string_view text) { return from_json(parse_network_config(text)); }

NetConf NetConf::from_json(nlohmann::json document) {
  NetConf conf;
  conf.name_ = valid_network_name(document);
  conf.cni_version_ = optional_string(document, "cniVersion");
  if (conf.cni_version_.empty()) conf.cni_version_ = "0.1.0";
  conf.type_ = optional_string(document, "type");
  for (std::string_view key : {"args", "ipam", "dns", "runtimeConfig", "capabilities", "prevResult"}) {
    require_object_or_null(document, key);
  }
  // libcni sends both GC keys (the spec-v1.1.0 text named the legacy one);
  // the current name wins when both are present.
  if (const nlohmann::json* valid = find_key(document, "cni.dev/valid-attachments")) {
    conf.valid_attachments_ = read_attachments(*valid, "cni.dev/valid-attachments");
  } else if (const nlohmann::json* legacy = find_key(document, "cni.dev/attachments")) {
    conf.valid_attachments_ = read_attachments(*legacy, "cni.dev/attachments");
  }
  if (const nlohmann::json* ipam = find_key(document, "ipam"); ipam != nullptr && ipam->is_object()) {
    optional_string(*ipam, "type");  // a non-string type is a decoding error, as in Go
  }
  conf.raw_ = std::move(document);
  return conf;
}

const nlohmann::json* NetConf::find(std::string_view key) const { return find_key(raw_, key); }

std::string NetConf::ipam_type() const { return optional_string(ipam(), "type"); }

const nlohmann::json& NetConf::args() const { return member_or_null(raw_, "args"); }
const nlohmann::json& NetConf::ipam() const { return member_or_null(raw_, "ipam"); }
const nlohmann::json& NetConf::dns() const { return member_or_null(raw_, "dns"); }
const nlohmann::json& NetConf::runtime_config() const { return member_or_null(raw_, "runtimeConfig"); }
const nlohmann::json& NetConf::capabilities() const { return member_or_null(raw_, "capabilities"); }
const nlohmann::json& NetConf::prev_result_json() const { return member_or_null(raw_, "prevResult"); }

std::optional<Result> NetConf::prev_result() const {
  const nlohmann::json& json = prev_result_json();
  if (json.is_null()) return std::nullopt;
  // Result::decode applies Go's ParsePrevResult rules: no cniVersion means
  // the config's, and another result family is refused.
  try {
    return Result::decode(json, cni_version_);
  } catch (const Error& e) {
    throw Error(kDecodingFailure, "could not parse prevResult: " + e.msg(), e.details());
  }
}

}  // namespace wincni::cni
