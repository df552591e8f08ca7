// hnsctl explain: what an ADD would do with a config, without doing it.
// The config comes as a runtime gives it (a file or stdin; a conflist's
// first plugin, as the runtime hands it over), the pod's values from the
// CNI_* variables or flags. For flannel, the delegate config it would
// build from subnet.env is shown and then explained in turn. Nothing is
// created, locked or allocated: only HNS queries are made.

#include <fmt/format.h>

#include "command_entry_points.hpp"
#include "config_explanation.hpp"
#include "wincni/cni/config.hpp"
#include "wincni/os/private_files.hpp"
#include "wincni/cni/stdin_text.hpp"

namespace wincni::hnsctl {

namespace {

using Json = nlohmann::ordered_json;

std::string text_of(const Json& value) { return value.get<std::string>(); }

std::string report_text(const Json& report) {
  std::string out;
  if (report.contains("conflist")) out += "config: " + text_of(report["conflist"]) + "\n";
  if (report.contains("flannel")) {
    const Json& step = report["flannel"];
    out += "flannel: reads " + text_of(step["subnetFile"]) + "\n";
    if (step.contains("problem")) out += "  PROBLEM: " + text_of(step["problem"]) + "\n";
    if (step.contains("delegate")) {
      out += "  " + text_of(step["generated"]) + "\n  delegate config:\n";
      std::string text = step["delegate"].dump(2);
      for (size_t at = 0; (at = text.find('\n', at)) != std::string::npos; at += 5) text.replace(at, 1, "\n    ");
      out += "    " + text + "\n";
    }
  }
  if (!report.contains("plugin")) return out;
  const Json& hns = report["hns"];
  out += "plugin: " + text_of(report["plugin"]) + "\n";
  out += fmt::format("HNS {}, API {} ({})\n", text_of(hns["version"]), text_of(hns["api"]), text_of(hns["why"]));
  out += "pod: " + text_of(report["role"]) + "\n";
  const Json& network = report["network"];
  out += "network " + text_of(network["name"]) + ": ";
  const auto subnets_text = [](const Json& view) {
    std::string text;
    for (const Json& subnet : view["subnets"]) text += " " + text_of(subnet["prefix"]);
    return text;
  };
  if (network["found"].get<bool>()) {
    out += fmt::format("{}{} ({})\n", text_of(network["type"]), subnets_text(network), text_of(network["id"]));
  } else if (network.contains("create")) {
    out += "missing; ADD creates it: " + text_of(network["create"]["type"]) + subnets_text(network["create"]) + "\n";
  } else {
    out += "missing; ADD waits " + network.value("waits", std::string("")) + "\n";
  }
  const Json& ipam = report["ipam"];
  out += "addresses: " + text_of(ipam["by"]) + "\n";
  if (ipam.contains("request")) out += "  ipam: " + ipam["request"].dump() + "\n";
  out += "endpoint: " + text_of(report["endpoint"]["name"]) + "\n";
  if (report["endpoint"].contains("existing")) out += "  " + text_of(report["endpoint"]["existing"]) + "\n";
  if (report.contains("dns")) {
    const Json& dns = report["dns"];
    const auto list = [&](const char* key) {
      std::string text;
      for (const Json& entry : dns.value(key, Json::array())) text += " " + text_of(entry);
      return text.empty() ? std::string(" (none)") : text;
    };
    out += fmt::format("dns: search{}; nameservers{}\n  {}\n", list("search"), list("nameservers"),
                       text_of(dns["why"]));
  }
  out += fmt::format("policies ({}):\n", report["policies"].size());
  for (const Json& entry : report["policies"]) {
    out += fmt::format("  from {}: {}\n", text_of(entry["from"]),
                       entry["policy"].is_string() ? text_of(entry["policy"]) : entry["policy"].dump());
  }
  for (const Json& warning : report["warnings"]) out += "WARNING: " + text_of(warning) + "\n";
  for (const Json& problem : report["problems"]) out += "PROBLEM: " + text_of(problem) + "\n";
  if (report["problems"].empty()) out += "ADD would succeed as far as HNS and the config tell\n";
  return out;
}

}  // namespace

int explain_add(Context& context, const Args& args) {
  os::OptionSet options("hnsctl explain",
                        "Show what ADD would do with a config, without doing it: the HNS API and why, the "
                        "network (found, created or waited for), the IPAM request, the endpoint and every policy "
                        "with where it came from, warnings, and what would make ADD fail (exit 1). The config "
                        "is FILE or stdin (a conflist's first plugin is taken, as a runtime hands it over); the "
                        "pod's values come from the flags, else the CNI_* variables.");
  options.value("file", "the config (default: stdin)")
      .value("netns", "CNI_NETNS: an HCN namespace GUID (containerd) or none / container:<id> (dockershim)")
      .value("container", "CNI_CONTAINERID (default: pod)")
      .value("ifname", "CNI_IFNAME (default: eth0)")
      .value("args", "CNI_ARGS")
      .value("pod-namespace", "the pod's namespace, as K8S_POD_NAMESPACE in CNI_ARGS (its DNS search list)")
      .flag("json", "print the explanation as JSON")
      .positional("file", "[FILE]");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  const auto value = [&](const char* flag, const char* variable, const char* fallback) {
    if (parsed->given(flag)) return parsed->text(flag);
    const char* set = std::getenv(variable);
    return std::string(set != nullptr && *set != '\0' ? set : fallback);
  };
  std::string cni_args = value("args", "CNI_ARGS", "");
  if (parsed->given("pod-namespace")) {
    // The last of a repeated key wins, as in Go's LoadArgs.
    cni_args += (cni_args.empty() ? "" : ";") + std::string("K8S_POD_NAMESPACE=") + parsed->text("pod-namespace");
  }
  const PodValues pod{value("container", "CNI_CONTAINERID", "pod"), value("netns", "CNI_NETNS", ""),
                      value("ifname", "CNI_IFNAME", "eth0"), cni_args};

  std::string text;
  if (parsed->given("file")) {
    const std::string path = parsed->text("file");
    std::optional<std::string> content = os::private_files::read_file(path);
    if (!content) throw std::runtime_error(fmt::format("cannot read {}: no such file", path));
    text = std::move(*content);
  } else {
    if (context.in == nullptr) throw UsageError("no config: give FILE or pipe it in");
    text = os::read_all(*context.in);
  }
  // Decoded as the plugins decode their stdin: a config PowerShell wrote
  // (with a BOM, or UTF-16) that the plugin reads must not fail here.
  const nlohmann::json document = cni::parse_network_config(cni::stdin_as_utf8(std::move(text)));

  const Json report = explain_document(context, document, pod);
  const bool fails = !failure_reasons(report).empty();
  if (parsed->given("json")) {
    print(context.out, "{}\n", report.dump(2));
  } else {
    std::string out = report_text(report);
    if (!report.contains("plugin")) {
      for (const Json& warning : report.value("warnings", Json::array())) out += "WARNING: " + text_of(warning) + "\n";
      for (const Json& problem : report.value("problems", Json::array())) out += "PROBLEM: " + text_of(problem) + "\n";
    }
    context.out.write(out);
  }
  return fails ? kFailed : kOk;
}

}  // namespace wincni::hnsctl
