#include "plan/endpoint_name.hpp"

#include "wincni/cni/cni_env.hpp"

namespace wincni::engine {

std::string sandbox_id(std::string_view container_id, std::string_view netns) {
  if (netns.empty() || netns == "none") return std::string(container_id);
  const size_t colon = netns.find(':');
  if (colon == std::string_view::npos) return std::string(container_id);
  return std::string(netns.substr(colon + 1));
}

std::string endpoint_name(std::string_view sandbox, std::string_view network) {
  std::string name;
  name.reserve(sandbox.size() + 1 + network.size());
  name.append(sandbox).append("_").append(network);
  return name;
}

std::optional<std::string> sandbox_of(std::string_view name, std::string_view network) {
  if (name.size() <= network.size() + 1) return std::nullopt;
  const size_t split = name.size() - network.size() - 1;
  if (name[split] != '_' || name.substr(split + 1) != network) return std::nullopt;
  std::string sandbox(name.substr(0, split));
  if (!cni::is_valid_cni_name(sandbox)) return std::nullopt;
  return sandbox;
}

}  // namespace wincni::engine
