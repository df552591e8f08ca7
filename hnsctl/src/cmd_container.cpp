// hnsctl container start|stop|show: a dockershim container's compute system
// in HCS, made and ended as the runtime (Docker) does around its life, so
// that a v1 CNI ADD can hot-add an endpoint to it.

#include "command_entry_points.hpp"

namespace wincni::hnsctl {
namespace {

// nullopt when --help was asked for (and printed).
std::optional<std::string> container_id(const Args& args, const char* usage, const char* help, Context& context) {
  os::OptionSet options(usage, help);
  options.value("id", "ID").positional("id", "CONTAINER-ID");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return std::nullopt;
  if (!parsed->given("id")) throw UsageError("which container? give its ID");
  return parsed->text("id");
}

}  // namespace

int container_start(Context& context, const Args& args) {
  auto id =
      container_id(args, "hnsctl container start",
                   "Create a running container's compute system in HCS, as Docker does before a v1 CNI ADD", context);
  if (!id) return kOk;
  context.client.create_compute_system(*id, hns::Json{{"SystemType", "Container"}, {"Owner", "hnsctl"}});
  print(context.out, "started container {}\n", *id);
  return kOk;
}

int container_stop(Context& context, const Args& args) {
  auto id = container_id(args, "hnsctl container stop",
                         "End a container's compute system in HCS; its endpoints' vNICs go with it", context);
  if (!id) return kOk;
  if (!context.client.terminate_compute_system(*id)) {
    print(context.err, "hnsctl: no running container {}\n", *id);
    return kFailed;
  }
  print(context.out, "stopped container {}\n", *id);
  return kOk;
}

int container_show(Context& context, const Args& args) {
  auto id = container_id(args, "hnsctl container show", "Show a container's compute system as HCS reports it", context);
  if (!id) return kOk;
  auto properties = context.client.compute_system_properties(*id);
  if (!properties) {
    print(context.err, "hnsctl: no running container {}\n", *id);
    return kFailed;
  }
  print(context.out, "{}\n", properties->dump(2));
  return kOk;
}

}  // namespace wincni::hnsctl
