#include "object_commands.hpp"

#include <fmt/format.h>

namespace wincni::hnsctl {
namespace {

// The NAME-OR-ID argument of show/delete.
std::optional<std::string> target(Context& context, const Args& args, const std::string& verb, const ObjectOps& ops) {
  os::OptionSet options(
      fmt::format("hnsctl {} {}", ops.noun, verb),
      fmt::format("{} the {} named NAME-OR-ID (a name, or an ID)", verb == "show" ? "Show" : "Delete", ops.noun));
  options.value("target", "NAME-OR-ID").positional("target", "NAME-OR-ID");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return std::nullopt;
  if (!parsed->given("target")) throw UsageError("which " + ops.noun + "? give its name or ID");
  return parsed->text("target");
}

}  // namespace

int show_object(Context& context, const Args& args, const ObjectOps& ops) {
  auto key = target(context, args, "show", ops);
  if (!key) return kOk;
  auto object = ops.find(context.client, *key);
  if (!object) {
    print(context.err, "hnsctl: no {} \"{}\"\n", ops.noun, *key);
    return kFailed;
  }
  print(context.out, "{}\n", object->dump(2));
  return kOk;
}

int delete_object(Context& context, const Args& args, const ObjectOps& ops) {
  auto key = target(context, args, "delete", ops);
  if (!key) return kOk;
  auto object = ops.find(context.client, *key);
  if (!object) {
    print(context.err, "hnsctl: no {} \"{}\"\n", ops.noun, *key);
    return kFailed;
  }
  auto id = hns::Guid::parse(object->value("ID", ""));
  if (!id || !ops.remove(context.client, *id)) {
    print(context.err, "hnsctl: {} \"{}\" was already gone\n", ops.noun, *key);
    return kFailed;
  }
  print(context.out, "deleted {} {} ({})\n", ops.noun, object->value("Name", ""), id->str());
  return kOk;
}

}  // namespace wincni::hnsctl
