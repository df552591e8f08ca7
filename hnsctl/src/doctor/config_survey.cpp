#include "doctor/config_survey.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "config_explanation.hpp"
#include "config_folder.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::hnsctl::doctor {

namespace files = os::private_files;

namespace {

// The types looked up in the runtime's bin folders for this config: each
// plugin's and its IPAM's, and flannel's delegate's (its "type", or the one
// flanneld's backend picks when it names none) with the delegate's IPAM,
// host-local unless it says otherwise.
void add_plugin_types(const nlohmann::json& document, std::set<std::string>& types) {
  const auto type_of = [](const nlohmann::json& object) -> std::string {
    const auto type = object.find("type");
    return type != object.end() && type->is_string() ? type->get<std::string>() : std::string();
  };
  const auto add_with_ipam = [&](const nlohmann::json& plugin) {
    if (const std::string type = type_of(plugin); !type.empty()) types.insert(type);
    if (const auto ipam = plugin.find("ipam"); ipam != plugin.end() && ipam->is_object()) {
      if (const std::string type = type_of(*ipam); !type.empty()) types.insert(type);
    }
  };
  const auto add = [&](const nlohmann::json& plugin) {
    if (!plugin.is_object()) return;
    add_with_ipam(plugin);
    if (type_of(plugin) != "flannel") return;
    const auto delegate = plugin.find("delegate");
    if (delegate != plugin.end() && delegate->is_object()) add_with_ipam(*delegate);
    if (delegate == plugin.end() || !delegate->is_object() || !delegate->contains("ipam")) types.insert("host-local");
  };
  const auto plugins = document.find("plugins");
  if (plugins == document.end() || !plugins->is_array()) return add(document);
  for (const nlohmann::json& plugin : *plugins) add(plugin);
}

}  // namespace

ConfigSurvey survey_configs(Context& context, const std::string& folder) {
  ConfigSurvey survey;
  if (!files::is_directory(folder)) {
    throw std::runtime_error(
        fmt::format("the CNI config folder {} does not exist: without it nothing tells which "
                    "networks are wincni's (give the folder with --conf-dir)",
                    folder));
  }
  // Any pod ID will do: explain queries HNS, it creates nothing.
  const PodValues pod{"hnsctl-doctor", "", "eth0", ""};
  for (const FolderConfig& config : read_config_folder(folder)) {
    nlohmann::ordered_json report;
    try {
      report = explain_document(context, config.document, pod);
    } catch (const std::runtime_error&) {
      continue;  // another plugin's config
    }
    ++survey.configs;
    if (const auto name = config.document.find("name"); name != config.document.end() && name->is_string()) {
      survey.networks.insert(name->get<std::string>());
    }
    add_plugin_types(config.document, survey.plugins);
    for (const std::string& problem : failure_reasons(report)) {
      survey.problems.push_back({"network", config.path, problem, {}, {}});
    }
  }
  return survey;
}

}  // namespace wincni::hnsctl::doctor
