#pragma once
// Keys of a config that no reader takes: a typo ("serivceCIDR", "plugin"
// for "plugins", "dns.serach") is otherwise ignored in silence, as Go's
// decoder ignores it, and the operator learns of it only from what does not
// happen. Each becomes a warning, with the known key it is nearest to.

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace wincni::cni {

// The keys every config may have, which no plugin reads for itself: the
// CNI spec's for a plugin config and a conflist (name, type, cniVersion,
// cniVersions, capabilities, runtimeConfig, prevResult, args, ipam, dns,
// plugins, disableCheck, disableGC, cni.dev/valid-attachments,
// cni.dev/attachments) and the log settings every wincni plugin reads
// (logFile, logLevel: log.hpp) and delegateInProcess (carried_plugins.hpp).
inline constexpr std::array<std::string_view, 18> kCommonConfigKeys{"name",
                                                                    "type",
                                                                    "cniVersion",
                                                                    "cniVersions",
                                                                    "capabilities",
                                                                    "runtimeConfig",
                                                                    "prevResult",
                                                                    "args",
                                                                    "ipam",
                                                                    "dns",
                                                                    "plugins",
                                                                    "disableCheck",
                                                                    "disableGC",
                                                                    "cni.dev/valid-attachments",
                                                                    "cni.dev/attachments",
                                                                    "logFile",
                                                                    "logLevel",
                                                                    "delegateInProcess"};

// `unknown key "serivceCIDR" is ignored (did you mean "serviceCIDR"?)` for
// each key of `object` (when it is one) that is in neither `known` nor
// `also_known`, compared ignoring ASCII case as the readers match keys; the
// suggestion only when a known key is at most two edits away. `path` names
// the object ("dns"; "" at the top level).
std::vector<std::string> unknown_key_warnings(const nlohmann::json& object, std::span<const std::string_view> known,
                                              std::span<const std::string_view> also_known = {},
                                              std::string_view path = "");

}  // namespace wincni::cni
