#pragma once
// "show" and "delete" work alike for networks and endpoints: find the object
// by name or ID, then print or delete it.

#include <functional>
#include <optional>

#include "command.hpp"

namespace wincni::hnsctl {

struct ObjectOps {
  std::string noun;  // "network"
  // The object as HNS shows it (v2 JSON), found by GUID or else by name.
  std::function<std::optional<hns::Json>(hns::HnsClient&, const std::string&)> find;
  std::function<bool(hns::HnsClient&, const hns::Guid&)> remove;
};

int show_object(Context& context, const Args& args, const ObjectOps& ops);
int delete_object(Context& context, const Args& args, const ObjectOps& ops);

// "cbr0" or a GUID: by ID when it parses as one, else by name.
template <class Object, class ById, class ByName>
std::optional<hns::Json> find_by_name_or_id(const std::string& key, ById by_id, ByName by_name) {
  std::optional<Object> found;
  if (auto id = hns::Guid::parse(key)) found = by_id(*id);
  if (!found) found = by_name(key);
  if (!found) return std::nullopt;
  return found->to_json();
}

}  // namespace wincni::hnsctl
