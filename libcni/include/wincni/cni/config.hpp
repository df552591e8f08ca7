#pragma once
// The network configuration a plugin reads on stdin: the generic CNI keys,
// looked up case-insensitively at the top level as Go's decoder does. Plugin
// specific keys are read from raw() by the plugin itself.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/result.hpp"

namespace wincni::cni {

struct Attachment {
  std::string container_id;
  std::string ifname;
};

// The checks Go's skel applies to stdin for every command but VERSION, before
// it even looks at the command: the text is JSON (else Error 6 "error
// unmarshall network config: ...") with a valid "name" (else Error 7
// "missing network name" / "invalid characters found in network name").
// Nesting deeper than 1000 levels is refused (Error 6 "... exceeded max
// depth"), where Go's limit is 10000: see json_depth.hpp.
// Returns the parsed document.
nlohmann::json parse_network_config(std::string_view text);

class NetConf {
 public:
  // Throws Error 6 ("error unmarshall network config: ...") when `text` is
  // not a JSON object; 7 for a missing or invalid network name.
  static NetConf parse(std::string_view text);
  // The same from an already parsed document (see parse_network_config).
  // Besides the name, the generic keys must have their CNI types (strings
  // for cniVersion and type, objects for ipam, dns, args, runtimeConfig,
  // capabilities and prevResult, well-formed GC attachments): Error 6.
  static NetConf from_json(nlohmann::json document);

  const nlohmann::json& raw() const { return raw_; }
  // Case-insensitive top-level lookup; nullptr when absent.
  const nlohmann::json* find(std::string_view key) const;

  const std::string& cni_version() const { return cni_version_; }  // "" in input -> "0.1.0"
  const std::string& name() const { return name_; }
  const std::string& type() const { return type_; }
  std::string ipam_type() const;  // "" when no ipam or no ipam.type

  // null json when absent.
  const nlohmann::json& args() const;
  const nlohmann::json& ipam() const;
  const nlohmann::json& dns() const;
  const nlohmann::json& runtime_config() const;
  const nlohmann::json& capabilities() const;
  const nlohmann::json& prev_result_json() const;

  // prevResult decoded in the config's version family; nullopt when absent.
  // Throws Error 6 when it is present but does not fit that family.
  std::optional<Result> prev_result() const;

  // GC: cni.dev/valid-attachments, else the legacy cni.dev/attachments, else
  // empty (an absent key means "nothing is valid").
  const std::vector<Attachment>& valid_attachments() const { return valid_attachments_; }

 private:
  nlohmann::json raw_;
  std::string cni_version_, name_, type_;
  std::vector<Attachment> valid_attachments_;
};

}  // namespace wincni::cni
