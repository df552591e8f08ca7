// hnsctl explain: what an ADD would do with a config, without doing it.
// The config comes as a runtime gives it (a file or stdin; a conflist's
// first plugin, as the runtime hands it over), the pod's values from the
// CNI_* variables or flags. For flannel, the delegate config it would
// build from subnet.env is shown and then explained in turn. Nothing is
// created, locked or allocated: only HNS queries are made.

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "bridge_flavor.hpp"
#include "commands.hpp"
#include "flannel_config.hpp"
#include "overlay_flavor.hpp"
#include "pod_delegate.hpp"
#include "subnet_env.hpp"
#include "wincni/cni/config.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/cni/stdin_text.hpp"
#include "wincni/engine/engine.hpp"

namespace wincni::hnsctl {

namespace {

using Json = nlohmann::ordered_json;

// On Windows the runtime runs `<type>.exe`, or `<type>` when that is a file,
// so a config may name its plugin with the extension (the legacy wincni
// example's "wincni.exe"): the plugin is the same.
std::string_view without_exe(std::string_view type) {
  constexpr std::string_view kExe = ".exe";
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

struct PodValues {
  std::string container;
  std::string netns;
  std::string ifname;
  std::string args;
};

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
    throw std::runtime_error(fmt::format("type \"{}\" is not one of wincni's HNS plugins (win-bridge, win-overlay and "
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
  Json step = {{"subnetFile", flannel_config.subnet_file}};
  const auto subnet_env = flannel::read_subnet_env(flannel_config.subnet_file);
  if (!subnet_env) {
    step["problem"] = fmt::format("{} does not exist (yet): ADD waits {} ms for flanneld to write it, then fails",
                                  flannel_config.subnet_file, flannel_config.subnet_wait.count());
    report["flannel"] = step;
    return Json();
  }
  const nlohmann::json delegate = flannel::pod_delegate_config(
      flannel_config, *subnet_env, ctx,
      [&context] { return borrowed_api(context); });
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

void print_text(const Json& report, std::ostream& out) {
  if (report.contains("conflist")) out << "config: " << report["conflist"].get<std::string>() << "\n";
  if (report.contains("flannel")) {
    const Json& step = report["flannel"];
    out << "flannel: reads " << step["subnetFile"].get<std::string>() << "\n";
    if (step.contains("problem")) out << "  PROBLEM: " << step["problem"].get<std::string>() << "\n";
    if (step.contains("delegate")) {
      out << "  " << step["generated"].get<std::string>() << "\n  delegate config:\n";
      std::string text = step["delegate"].dump(2);
      for (size_t at = 0; (at = text.find('\n', at)) != std::string::npos; at += 5) text.replace(at, 1, "\n    ");
      out << "    " << text << "\n";
    }
  }
  if (!report.contains("plugin")) return;
  const Json& hns = report["hns"];
  out << "plugin: " << report["plugin"].get<std::string>() << "\n";
  out << "HNS " << hns["version"].get<std::string>() << ", API " << hns["api"].get<std::string>() << " ("
      << hns["why"].get<std::string>() << ")\n";
  out << "pod: " << report["role"].get<std::string>() << "\n";
  const Json& network = report["network"];
  out << "network " << network["name"].get<std::string>() << ": ";
  const auto subnets_text = [](const Json& view) {
    std::string text;
    for (const Json& subnet : view["subnets"]) text += " " + subnet["prefix"].get<std::string>();
    return text;
  };
  if (network["found"].get<bool>()) {
    out << network["type"].get<std::string>() << subnets_text(network) << " (" << network["id"].get<std::string>()
        << ")\n";
  } else if (network.contains("create")) {
    out << "missing; ADD creates it: " << network["create"]["type"].get<std::string>()
        << subnets_text(network["create"]) << "\n";
  } else {
    out << "missing; ADD waits " << network.value("waits", std::string("")) << "\n";
  }
  const Json& ipam = report["ipam"];
  out << "addresses: " << ipam["by"].get<std::string>() << "\n";
  if (ipam.contains("request")) out << "  ipam: " << ipam["request"].dump() << "\n";
  out << "endpoint: " << report["endpoint"]["name"].get<std::string>() << "\n";
  if (report["endpoint"].contains("existing")) {
    out << "  " << report["endpoint"]["existing"].get<std::string>() << "\n";
  }
  out << "policies (" << report["policies"].size() << "):\n";
  for (const Json& entry : report["policies"]) {
    out << "  from " << entry["from"].get<std::string>() << ": "
        << (entry["policy"].is_string() ? entry["policy"].get<std::string>() : entry["policy"].dump()) << "\n";
  }
  for (const Json& warning : report["warnings"]) out << "WARNING: " << warning.get<std::string>() << "\n";
  for (const Json& problem : report["problems"]) out << "PROBLEM: " << problem.get<std::string>() << "\n";
  if (report["problems"].empty()) out << "ADD would succeed as far as HNS and the config tell\n";
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
    warnings.push_back("the config does not declare the portMappings capability: the runtime passes no port "
                       "mappings, so a pod's hostPort does not work");
  }
  if (!declared("dns")) {
    warnings.push_back("the config does not declare the dns capability: the pod's DNS comes from the config's "
                       "\"dns\" only, not from Kubernetes");
  }
  return warnings;
}

std::string read_all(std::istream& in) { return std::string(std::istreambuf_iterator<char>(in), {}); }

}  // namespace

int explain_add(Context& context, const Args& args) {
  cxxopts::Options options("hnsctl explain",
                           "Show what ADD would do with a config, without doing it: the HNS API and why, the "
                           "network (found, created or waited for), the IPAM request, the endpoint and every policy "
                           "with where it came from, warnings, and what would make ADD fail (exit 1). The config "
                           "is FILE or stdin (a conflist's first plugin is taken, as a runtime hands it over); the "
                           "pod's values come from the flags, else the CNI_* variables.\n\n"
                           "Usage: hnsctl explain [FILE] [--netns NETNS] [--container ID] [--json]");
  options.add_options()("file", "the config (default: stdin)", cxxopts::value<std::string>())(
      "netns", "CNI_NETNS: an HCN namespace GUID (containerd) or none / container:<id> (dockershim)",
      cxxopts::value<std::string>())("container", "CNI_CONTAINERID (default: pod)", cxxopts::value<std::string>())(
      "ifname", "CNI_IFNAME (default: eth0)", cxxopts::value<std::string>())(
      "args", "CNI_ARGS", cxxopts::value<std::string>())("json", "print the explanation as JSON");
  options.parse_positional({"file"});
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  const auto value = [&](const char* flag, const char* variable, const char* fallback) {
    if (parsed->count(flag)) return (*parsed)[flag].as<std::string>();
    const char* set = std::getenv(variable);
    return std::string(set != nullptr && *set != '\0' ? set : fallback);
  };
  const PodValues pod{value("container", "CNI_CONTAINERID", "pod"), value("netns", "CNI_NETNS", ""),
                      value("ifname", "CNI_IFNAME", "eth0"), value("args", "CNI_ARGS", "")};

  std::string text;
  if (parsed->count("file")) {
    const std::string path = (*parsed)["file"].as<std::string>();
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::runtime_error(fmt::format("cannot read {}", path));
    text = read_all(file);
  } else {
    if (context.in == nullptr) throw UsageError("no config: give FILE or pipe it in");
    text = read_all(*context.in);
  }
  // Decoded as the plugins decode their stdin: a config PowerShell wrote
  // (with a BOM, or UTF-16) that the plugin reads must not fail here.
  const nlohmann::json document = cni::parse_network_config(cni::stdin_as_utf8(std::move(text)));

  Json report;
  try {
    const nlohmann::json config = plugin_config(document, report);
    const Json endpoint = cni::equals_ignore_case(without_exe(config.value("type", "")), "flannel") ? explain_flannel(config, pod, context, report)
                                                                       : explain_endpoint(config, pod, context);
    if (!endpoint.is_null()) report.update(endpoint);
    if (!report.contains("warnings")) report["warnings"] = Json::array();
    for (const std::string& warning : capability_warnings(config)) report["warnings"].push_back(warning);
  } catch (const cni::Error& error) {
    report["problems"] = Json::array({fmt::format("error {}: {}", error.code(), error.msg())});
  }
  const bool fails = (report.contains("problems") && !report["problems"].empty()) ||
                     (report.contains("flannel") && report["flannel"].contains("problem"));
  if (parsed->count("json")) {
    context.out << report.dump(2) << "\n";
  } else {
    print_text(report, context.out);
    if (!report.contains("plugin")) {
      for (const Json& warning : report.value("warnings", Json::array())) {
        context.out << "WARNING: " << warning.get<std::string>() << "\n";
      }
      for (const Json& problem : report.value("problems", Json::array())) {
        context.out << "PROBLEM: " << problem.get<std::string>() << "\n";
      }
    }
  }
  return fails ? kFailed : kOk;
}

}  // namespace wincni::hnsctl
