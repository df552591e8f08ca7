// hnsctl explain's report (config_explanation.hpp): the plugin a config
// names, flannel's delegate from subnet.env, then the engine's explanation.

#include <algorithm>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "config_explanation.hpp"
#include "wincni/bridge/bridge_flavor.hpp"
#include "wincni/cni/config.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/cni/plugin_path.hpp"
#include "wincni/engine/engine.hpp"
#include "wincni/flannel/flannel_config.hpp"
#include "wincni/flannel/pod_delegate.hpp"
#include "wincni/flannel/subnet_env.hpp"
#include "wincni/overlay/overlay_flavor.hpp"

namespace wincni::hnsctl {

namespace {

using Json = nlohmann::ordered_json;

// On Windows the runtime runs `<type>.exe`, or `<type>` when that is a file,
// so a config may name its plugin with the extension (the legacy wincni
// example's "wincni.exe"): the plugin is the same.
std::string_view without_exe(std::string_view type) {
  constexpr std::string_view kExe = cni::kWindowsExecutableSuffix;
  if (type.size() > kExe.size() && cni::equals_ignore_case(type.substr(type.size() - kExe.size()), kExe)) {
    type.remove_suffix(kExe.size());
  }
  return type;
}

// The names configs give our plugins: their own, Microsoft's, and the
// legacy wincni's, whose L2Bridge configs win-bridge runs installed as
// wincni.exe.
const engine::EndpointFlavor* flavor_for(const std::string& type) {
  static const bridge::BridgeFlavor bridge;
  static const overlay::OverlayFlavor overlay;
  const std::string_view plugin = without_exe(type);
  for (const char* name : {"win-bridge", "sdnbridge", "l2bridge", "l2tunnel", "wincni"}) {
    if (cni::equals_ignore_case(plugin, name)) return &bridge;
  }
  for (const char* name : {"win-overlay", "sdnoverlay"}) {
    if (cni::equals_ignore_case(plugin, name)) return &overlay;
  }
  return nullptr;
}

// The plugin config a runtime hands over: a conflist's first plugin with the
// list's name and cniVersion put in.
nlohmann::json plugin_config(const nlohmann::json& document, Json& report) {
  if (!document.contains("plugins")) return document;
  const auto& plugins = document["plugins"];
  if (!plugins.is_array() || plugins.empty() || !plugins[0].is_object()) {
    throw UsageError("the conflist has no plugins");
  }
  nlohmann::json plugin = plugins[0];
  plugin["name"] = document.value("name", "");
  plugin["cniVersion"] = document.value("cniVersion", "");
  report["conflist"] = fmt::format("the first of {} plugin(s), with the list's name and cniVersion", plugins.size());
  return plugin;
}

cni::CommandContext add_context(const nlohmann::json& config, const PodValues& pod) {
  cni::CommandContext ctx;
  ctx.command = "ADD";
  ctx.container_id = pod.container;
  ctx.netns = pod.netns;
  ctx.ifname = pod.ifname;
  ctx.cni_args = pod.args;
  ctx.stdin_data = config.dump();
  ctx.config = cni::NetConf::parse(ctx.stdin_data);
  return ctx;
}

Json explain_endpoint(const nlohmann::json& config, const PodValues& pod, Context& context) {
  const std::string type = config.value("type", "");
  const engine::EndpointFlavor* flavor = flavor_for(type);
  if (flavor == nullptr) {
    throw std::runtime_error(
        fmt::format("type \"{}\" is not one of wincni's HNS plugins (win-bridge, win-overlay and "
                    "the names Microsoft's and the legacy wincni's configs use for them)",
                    type));
  }
  const engine::EndpointEngine engine(*flavor, [&context] { return borrowed_api(context); });
  return engine.explain(add_context(config, pod));
}

// flannel: the delegate config it would build for this pod, then that
// delegate's ADD.
Json explain_flannel(const nlohmann::json& config, const PodValues& pod, Context& context, Json& report) {
  const cni::CommandContext ctx = add_context(config, pod);
  const flannel::FlannelConfig flannel_config = flannel::read_flannel_config(ctx.config);
  Json step = {{"subnetFile", flannel_config.subnet_file}, {"warnings", flannel_config.warnings}};
  const auto subnet_env = flannel::read_subnet_env(flannel_config.subnet_file);
  if (!subnet_env) {
    step["problem"] = fmt::format("{} does not exist (yet): ADD waits {} ms for flanneld to write it, then fails",
                                  flannel_config.subnet_file, flannel_config.subnet_wait.count());
    report["flannel"] = step;
    return Json();
  }
  const nlohmann::json delegate =
      flannel::pod_delegate_config(flannel_config, *subnet_env, ctx, [&context] { return borrowed_api(context); });
  step["delegate"] = delegate;
  step["generated"] = flannel_config.service_networks.empty()
                          ? "no serviceCIDR: no policies are generated"
                          : "the delegate's OutBoundNAT exceptions, encapsulated routes and provider address are "
                            "generated from serviceCIDR, subnet.env and the node's address, after its own";
  report["flannel"] = step;
  Json explained = explain_endpoint(delegate, pod, context);
  // flannel puts the generated policies after the user's own: name them.
  size_t own = 0;
  for (const char* key : {"policies", "AdditionalArgs"}) {
    const nlohmann::json* list = cni::find_key(flannel_config.delegate, key);
    if (list != nullptr && list->is_array()) own = std::max(own, list->size());
  }
  for (Json& entry : explained["policies"]) {
    const std::string from = entry["from"].get<std::string>();
    for (const char* key : {"policies[", "AdditionalArgs["}) {
      if (from.rfind(key, 0) != 0) continue;
      const size_t index = std::stoul(from.substr(std::string_view(key).size()));
      if (index >= own) entry["from"] = "flannel's generated policies (serviceCIDR, subnet.env, the node's address)";
    }
  }
  return explained;
}

// The runtime fills runtimeConfig only with the capabilities a config
// declares: without them hostPort and the pod's DNS settings never arrive.
std::vector<std::string> capability_warnings(const nlohmann::json& config) {
  std::vector<std::string> warnings;
  const nlohmann::json capabilities = config.value("capabilities", nlohmann::json::object());
  const auto declared = [&](const char* name) {
    return capabilities.is_object() && capabilities.contains(name) && capabilities[name] == true;
  };
  if (!declared("portMappings")) {
    warnings.push_back(
        "the config does not declare the portMappings capability: the runtime passes no port "
        "mappings, so a pod's hostPort does not work");
  }
  if (!declared("dns")) {
    warnings.push_back(
        "the config does not declare the dns capability: the pod's DNS comes from the config's "
        "\"dns\" only, not from Kubernetes");
  }
  return warnings;
}

}  // namespace

Json explain_document(Context& context, const nlohmann::json& document, const PodValues& pod) {
  Json report;
  try {
    const nlohmann::json config = plugin_config(document, report);
    const bool flannel = cni::equals_ignore_case(without_exe(config.value("type", "")), "flannel");
    const Json endpoint =
        flannel ? explain_flannel(config, pod, context, report) : explain_endpoint(config, pod, context);
    if (!endpoint.is_null()) report.update(endpoint);
    if (!report.contains("warnings")) report["warnings"] = Json::array();
    // flannel's own (its keys), before its delegate's.
    if (report.contains("flannel") && report["flannel"].contains("warnings")) {
      Json warnings = std::move(report["flannel"]["warnings"]);
      report["flannel"].erase("warnings");
      for (Json& warning : report["warnings"]) warnings.push_back(std::move(warning));
      report["warnings"] = std::move(warnings);
    }
    for (const std::string& warning : capability_warnings(config)) report["warnings"].push_back(warning);
  } catch (const cni::Error& error) {
    report["problems"] = Json::array({fmt::format("error {}: {}", error.code(), error.msg())});
  }
  return report;
}

std::vector<std::string> failure_reasons(const Json& report) {
  std::vector<std::string> reasons;
  if (report.contains("flannel") && report["flannel"].contains("problem")) {
    reasons.push_back(report["flannel"]["problem"].get<std::string>());
  }
  for (const Json& problem : report.value("problems", Json::array())) reasons.push_back(problem.get<std::string>());
  return reasons;
}

}  // namespace wincni::hnsctl
