// hnsctl namespace list|create|delete

#include <fmt/format.h>

#include "commands.hpp"
#include "table.hpp"

namespace wincni::hnsctl {

int namespace_list(Context& context, const Args& args) {
  cxxopts::Options options("hnsctl namespace list", "List HNS namespaces");
  options.add_options()("json", "Print the HNS v2 namespace objects as a JSON array");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  auto namespaces = context.client.list_namespaces();
  if (parsed->count("json")) {
    hns::Json all = hns::Json::array();
    for (const auto& ns : namespaces) all.push_back(ns.to_json());
    context.out << all.dump(2) << '\n';
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
  cxxopts::Options options("hnsctl namespace create",
                           "Create an HNS namespace and print its ID, as containerd does before a CNI ADD");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  context.out << context.client.create_namespace().id.str() << '\n';
  return kOk;
}

int namespace_delete(Context& context, const Args& args) {
  cxxopts::Options options("hnsctl namespace delete", "Delete the HNS namespace with this ID");
  options.add_options()("id", "ID", cxxopts::value<std::string>());
  options.parse_positional({"id"});
  options.positional_help("ID");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  if (!parsed->count("id")) throw UsageError("which namespace? give its ID");
  std::string text = (*parsed)["id"].as<std::string>();
  auto id = hns::Guid::parse(text);
  if (!id) throw UsageError("\"" + text + "\" is not a namespace ID (a GUID)");
  if (!context.client.delete_namespace(*id)) {
    context.err << "hnsctl: no namespace " << text << '\n';
    return kFailed;
  }
  context.out << "deleted namespace " << id->str() << '\n';
  return kOk;
}

}  // namespace wincni::hnsctl
