// hnsctl explain: what an ADD would do with a config, without doing it.
// The config comes as a runtime gives it (a file or stdin; a conflist's
// first plugin, as the runtime hands it over), the pod's values from the
// CNI_* variables or flags. For flannel, the delegate config it would
// build from subnet.env is shown and then explained in turn. Nothing is
// created, locked or allocated: only HNS queries are made.

#include <fstream>
#include <iostream>
#include <iterator>

#include <fmt/format.h>

#include "commands.hpp"
#include "config_explanation.hpp"
#include "wincni/cni/config.hpp"
#include "wincni/cni/stdin_text.hpp"

namespace wincni::hnsctl {

namespace {

using Json = nlohmann::ordered_json;

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

  const Json report = explain_document(context, document, pod);
  const bool fails = !failure_reasons(report).empty();
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
