#include "doctor/config_survey.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "config_explanation.hpp"
#include "wincni/cni/config.hpp"
#include "wincni/cni/config_file_names.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/private_files.hpp"
#include "wincni/cni/stdin_text.hpp"

namespace wincni::hnsctl::doctor {

namespace files = cni::private_files;

ConfigSurvey survey_configs(Context& context, const std::string& folder) {
  ConfigSurvey survey;
  if (!files::is_directory(folder)) {
    throw std::runtime_error(fmt::format("the CNI config folder {} does not exist: without it nothing tells which "
                                         "networks are wincni's (give the folder with --conf-dir)",
                                         folder));
  }
  std::vector<files::DirEntry> entries = files::list_directory(folder);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  // Any pod ID will do: explain queries HNS, it creates nothing.
  const PodValues pod{"hnsctl-doctor", "", "eth0", ""};
  for (const files::DirEntry& entry : entries) {
    if (!entry.regular_file || !cni::is_config_file_name(entry.name)) continue;
    const std::string path = files::join(folder, entry.name);
    nlohmann::ordered_json report;
    std::string network;
    try {
      const auto text = files::read_file(path);
      if (!text) continue;
      const auto document = cni::parse_network_config(cni::stdin_as_utf8(*text));
      report = explain_document(context, document, pod);
      if (const auto name = document.find("name"); name != document.end() && name->is_string()) network = *name;
    } catch (const std::runtime_error&) {
      continue;  // another plugin's config, or one no runtime could load either
    }
    ++survey.configs;
    if (!network.empty()) survey.networks.insert(network);
    for (const std::string& problem : failure_reasons(report)) {
      survey.problems.push_back({"network", path, problem, {}, {}});
    }
  }
  return survey;
}

}  // namespace wincni::hnsctl::doctor
