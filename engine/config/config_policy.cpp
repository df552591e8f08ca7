#include "config/config_policy.hpp"

#include <string_view>

#include <fmt/format.h>

#include "wincni/cni/config_fields.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/schema/schema_error.hpp"

namespace wincni::engine {

using Json = nlohmann::json;

namespace {

bool carries_nothing(const Json& value) {
  if (value.is_null()) return true;
  if (value.is_boolean()) return !value.get<bool>();
  if (value.is_number()) return value.get<double>() == 0;
  if (value.is_string()) return value.get_ref<const std::string&>().empty();
  if (value.is_array() || value.is_object()) return value.empty();
  return false;
}

// v1 field names that configs write inside v2 Settings, where HNS reads
// only the v2 name (OpenShift's hybrid overlay template puts OutBoundNAT's
// "ExceptionList" there; HNS would drop the exceptions without a word). The
// operator meant the field: it is read under its v2 name.
struct MisplacedV1Field {
  std::string_view type;
  std::string_view v1_key;
  std::string_view v2_key;
};
constexpr MisplacedV1Field kMisplacedV1Fields[] = {{"OutBoundNAT", "ExceptionList", "Exceptions"}};

// The member of `object` whose key is `key` in any case, or nullptr.
Json* find_member(Json& object, std::string_view key) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (cni::equals_ignore_case(it.key(), key)) return &it.value();
  }
  return nullptr;
}

Json with_v2_field_names(Json value, const std::string& where, std::vector<std::string>& warnings) {
  Json* settings = find_member(value, "Settings");
  const Json* type = cni::find_key(value, "Type");
  if (settings == nullptr || !settings->is_object() || type == nullptr || !type->is_string()) return value;
  for (const MisplacedV1Field& field : kMisplacedV1Fields) {
    if (!cni::equals_ignore_case(type->get<std::string>(), field.type)) continue;
    Json* misplaced = find_member(*settings, field.v1_key);
    if (misplaced == nullptr) continue;
    Json moved = std::move(*misplaced);
    for (auto it = settings->begin(); it != settings->end(); ++it) {
      if (cni::equals_ignore_case(it.key(), field.v1_key)) {
        settings->erase(it);
        break;
      }
    }
    if (carries_nothing(moved)) continue;
    if (cni::find_key(*settings, field.v2_key) != nullptr) {
      cni::kConfigFields.fail(
          where, fmt::format("{} has both \"{}\" and its v1 name \"{}\"", field.type, field.v2_key, field.v1_key));
    }
    warnings.push_back(fmt::format("{}: {}'s \"{}\" inside v2 Settings read as \"{}\" (HNS reads only the latter)",
                                   where, field.type, field.v1_key, field.v2_key));
    (*settings)[std::string(field.v2_key)] = std::move(moved);
  }
  return value;
}

bool is_v2_shape(const Json& value) {
  const Json* settings = cni::find_key(value, "Settings");
  return settings != nullptr && settings->is_object();
}

// A field the typed model did not read would vanish on the way to HNS: find
// it by rendering the policy back in the shape it came in.
void require_all_fields_read(const Json& value, const hns::Policy& policy, const std::string& where) {
  const bool v2 = is_v2_shape(value);
  const Json& given = v2 ? *cni::find_key(value, "Settings") : value;
  const Json rendered = v2 ? hns::render_v2(policy)["Settings"] : hns::render_v1(policy);
  for (const auto& [key, field] : given.items()) {
    if (!v2 && cni::equals_ignore_case(key, "Type")) continue;
    if (carries_nothing(field)) continue;
    if (cni::find_key(rendered, key) == nullptr) {
      cni::kConfigFields.fail(where, fmt::format("{} has no field \"{}\" in the {} shape", policy.type(), key,
                                                 v2 ? "v2 ({\"Type\",\"Settings\":{...}})" : "v1 (flat)"));
    }
  }
}

hns::Policy read_policy(const Json& given, PolicyTarget target, const std::string& where,
                        std::vector<std::string>& warnings) {
  if (!given.is_object())
    cni::kConfigFields.fail(where, fmt::format("the policy must be an object, not {}", given.type_name()));
  const Json value = with_v2_field_names(given, where, warnings);
  hns::Policy policy;
  try {
    policy = hns::parse_policy_any(value);
  } catch (const hns::SchemaError& e) {
    cni::kConfigFields.fail(where, e.what());
  }
  if (!policy.known()) cni::kConfigFields.fail(where, fmt::format("HNS has no policy type \"{}\"", policy.type()));
  const unsigned scope = target == PolicyTarget::Endpoint ? hns::kEndpointScope : hns::kNetworkScope;
  if ((policy.scopes() & scope) == 0) {
    cni::kConfigFields.fail(where, fmt::format("{} is not {} policy", policy.type(),
                                               target == PolicyTarget::Endpoint ? "an endpoint" : "a network"));
  }
  if (const std::string problem = policy.problem(); !problem.empty()) {
    cni::kConfigFields.fail(where, fmt::format("{}: {}", policy.type(), problem));
  }
  require_all_fields_read(value, policy, where);
  return policy;
}

void read_list(const Json& config, std::string_view key, std::vector<ConfigPolicy>& out,
               std::vector<std::string>& warnings) {
  const Json* list = cni::kConfigFields.read_array(config, key, "");
  if (list == nullptr) return;
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& entry = (*list)[i];
    const std::string where = cni::kConfigFields.index_path(key, i);
    if (!entry.is_object()) cni::kConfigFields.fail(where, fmt::format("must be an object, not {}", entry.type_name()));
    const auto kind = cni::kConfigFields.read_string(entry, "name", where);
    const Json* value = cni::kConfigFields.find(entry, "value");
    if (!kind) cni::kConfigFields.fail(where, "has no \"name\" (EndpointPolicy or NetworkPolicy)");
    if (value == nullptr) cni::kConfigFields.fail(where, "has no \"value\"");
    PolicyTarget target;
    if (cni::equals_ignore_case(*kind, "EndpointPolicy")) {
      target = PolicyTarget::Endpoint;
    } else if (cni::equals_ignore_case(*kind, "NetworkPolicy")) {
      target = PolicyTarget::Network;
    } else {
      cni::kConfigFields.fail(where,
                              fmt::format("unknown kind \"{}\" (expected EndpointPolicy or NetworkPolicy)", *kind));
    }
    out.push_back(ConfigPolicy{target, read_policy(*value, target, where, warnings), where});
  }
}

}  // namespace

std::vector<ConfigPolicy> read_config_policies(const Json& config, std::vector<std::string>& warnings) {
  std::vector<ConfigPolicy> policies;
  read_list(config, "policies", policies, warnings);
  read_list(config, "AdditionalArgs", policies, warnings);
  return policies;
}

}  // namespace wincni::engine
