#include "doctor/config_survey.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "config_explanation.hpp"
#include "wincni/cni/config.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/private_files.hpp"
#include "wincni/cni/stdin_text.hpp"

namespace wincni::hnsctl::doctor {

namespace {

namespace files = cni::private_files;

// The extensions a runtime loads configs from (libcni's ConfFiles).
bool is_config_file(const std::string& name) {
  for (const char* extension : {".conf", ".conflist", ".json"}) {
    const std::string_view suffix(extension);
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

ConfigSurvey survey_configs(Context& context, const std::string& folder) {
  ConfigSurvey survey;
  if (!files::is_directory(folder)) return survey;
  std::vector<files::DirEntry> entries = files::list_directory(folder);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  // Any pod ID will do: explain queries HNS, it creates nothing.
  const PodValues pod{"hnsctl-doctor", "", "eth0", ""};
  for (const files::DirEntry& entry : entries) {
    if (!entry.regular_file || !is_config_file(entry.name)) continue;
    const std::string path = files::join(folder, entry.name);
    nlohmann::ordered_json report;
    try {
      const auto text = files::read_file(path);
      if (!text) continue;
      report = explain_document(context, cni::parse_network_config(cni::stdin_as_utf8(*text)), pod);
    } catch (const std::runtime_error&) {
      continue;  // another plugin's config, or one no runtime could load either
    }
    ++survey.configs;
    if (!explains_failure(report)) continue;
    std::vector<std::string> problems;
    if (report.contains("flannel") && report["flannel"].contains("problem")) {
      problems.push_back(report["flannel"]["problem"].get<std::string>());
    }
    for (const auto& problem : report.value("problems", nlohmann::ordered_json::array())) {
      problems.push_back(problem.get<std::string>());
    }
    for (const std::string& problem : problems) survey.problems.push_back({"network", path, problem, {}, {}});
  }
  return survey;
}

}  // namespace wincni::hnsctl::doctor
