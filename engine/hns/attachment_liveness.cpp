#include "wincni/engine/attachment_liveness.hpp"

namespace wincni::engine {

bool serves_live_sandbox(hns::HnsClient& client, const hns::Guid& ns, const std::vector<std::string>& containers,
                         const std::function<bool(const hns::Guid&)>& namespace_exists) {
  if (!ns.is_null() && namespace_exists(ns)) return true;
  for (const std::string& container : containers) {
    if (client.compute_system_properties(container)) return true;
  }
  return false;
}

}  // namespace wincni::engine
