// hnsctl namespace list|create|delete

#include <fmt/format.h>

#include "command_entry_points.hpp"
#include "table.hpp"

namespace wincni::hnsctl {

int namespace_list(Context& context, const Args& args) {
  os::OptionSet options("hnsctl namespace list", "List HNS namespaces");
  options.flag("json", "Print the HNS v2 namespace objects as a JSON array");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  auto namespaces = context.client.list_namespaces();
  if (parsed->given("json")) {
    hns::Json all = hns::Json::array();
    for (const auto& ns : namespaces) all.push_back(ns.to_json());
    print(context.out, "{}\n", all.dump(2));
    return kOk;
  }
  Table table({"ID", "COMPARTMENT", "TYPE", "ENDPOINTS"});
  for (const auto& ns : namespaces) {
    std::string endpoints;
    for (const auto& id : ns.endpoint_ids()) endpoints += (endpoints.empty() ? "" : ",") + id.str();
    table.add({ns.id.str(), std::to_string(ns.namespace_id), ns.type, endpoints.empty() ? "-" : endpoints});
  }
  table.print(context.out);
  return kOk;
}

int namespace_create(Context& context, const Args& args) {
  os::OptionSet options("hnsctl namespace create",
                        "Create an HNS namespace and print its ID, as containerd does before a CNI ADD");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  print(context.out, "{}\n", context.client.create_namespace().id.str());
  return kOk;
}

int namespace_delete(Context& context, const Args& args) {
  os::OptionSet options("hnsctl namespace delete", "Delete the HNS namespace with this ID");
  options.value("id", "ID").positional("id", "ID");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  const hns::Guid id = id_option(*parsed, "namespace");
  if (!context.client.delete_namespace(id)) {
    print(context.err, "hnsctl: no namespace {}\n", id.str());
    return kFailed;
  }
  print(context.out, "deleted namespace {}\n", id.str());
  return kOk;
}

}  // namespace wincni::hnsctl
