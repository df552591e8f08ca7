#pragma once
// What ADD would do with a config, without doing it: the report behind
// `hnsctl explain`, which `hnsctl doctor` also asks of every config in the
// node's config folder. Only HNS queries are made.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command_entry_points.hpp"

namespace wincni::hnsctl {

// The pod's CNI_* values the explanation is for.
struct PodValues {
  std::string container;
  std::string netns;
  std::string ifname;
  std::string args;
};

// The report for `document`, a config or a conflist as a runtime reads it
// (a conflist's first plugin is what runs). What would make ADD fail is in
// its "problems" (and flannel's in "flannel"."problem"), never thrown;
// UsageError for a conflist without plugins, std::runtime_error for a type
// that is none of wincni's.
nlohmann::ordered_json explain_document(Context& context, const nlohmann::json& document, const PodValues& pod);

// What the report says would make ADD fail (flannel's problem, then the
// plugin's); empty when ADD would succeed.
std::vector<std::string> failure_reasons(const nlohmann::ordered_json& report);

}  // namespace wincni::hnsctl
