#pragma once
// The node's CNI configs that run one of wincni's plugins, each explained as
// ADD would see it (config_explanation.hpp): a network that is missing, of
// another type than the config asks for, or anything else that would make
// the next pod's ADD fail is reported. Never repaired: recreating a network
// cuts every pod on it off.

#include <set>
#include <string>
#include <vector>

#include "command_entry_points.hpp"
#include "doctor/leftover.hpp"

namespace wincni::hnsctl::doctor {

struct ConfigSurvey {
  std::vector<Leftover> problems;
  std::size_t configs = 0;         // wincni's configs read
  std::set<std::string> networks;  // the networks they name: host-local's store folders of wincni's pods
  std::set<std::string> plugins;   // the plugin and IPAM types they name, which the runtime must find
};

// std::runtime_error when `folder` does not exist: without it nothing tells
// which networks are wincni's.
ConfigSurvey survey_configs(Context& context, const std::string& folder);

}  // namespace wincni::hnsctl::doctor
