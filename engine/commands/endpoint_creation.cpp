#include "commands/endpoint_creation.hpp"

#include "wincni/hns/call_policy.hpp"
#include "wincni/hns/hns_error.hpp"

namespace wincni::engine {

namespace {

bool has_hresult(const std::exception& error, hns::HResult hresult) {
  const auto* hns_error = dynamic_cast<const hns::HnsError*>(&error);
  return hns_error != nullptr && hns_error->hresult() == hresult;
}

// HNS turned the create down, so this call made no endpoint, and one that
// has the ID is someone else's: a duplicate ID is refused with a code that
// is not public (ERROR_ALREADY_EXISTS in the emulator; docs/engine.md). A
// create whose read-back failed did make it (HnsError::after_work).
bool refused(const std::exception& error) {
  const auto* hns_error = dynamic_cast<const hns::HnsError*>(&error);
  return hns_error != nullptr && hns_error->refused();
}

// HNS v1 may not keep the ID the engine posts (docs/engine.md): a create
// whose answer was lost then made the endpoint under an ID of HNS's own.
// No endpoint had the name when ADD looked, and the name is the pod's own
// ("<sandbox>_<network>"), so one that has it now, on this network, attached
// to nothing, is the one this call made.
void remove_namesake_made_by_this_call(HnsAccess& access, const EndpointSpec& spec, const cni::Logger& log) {
  // HCN keeps the ID it is given: there the rollback's delete by ID did it.
  if (access.api() != HnsApi::V1) return;
  const auto namesake = access.find_endpoint(spec.name);
  if (!namesake || namesake->id == spec.id || namesake->network != spec.network) return;
  if (!access.attachments(*namesake).empty()) return;
  log.warn("removing endpoint {} ({}), made under an ID of HNS's own by the create that failed", spec.name,
           namesake->id.str());
  access.delete_endpoint(namesake->id);
}

}  // namespace

EndpointView create_endpoint_with_id(HnsAccess& access, const EndpointSpec& spec, const NetworkView& network,
                                     const cni::Logger& log) {
  try {
    EndpointView created = access.create_endpoint(spec, network);
    if (created.id != spec.id) {
      log.warn(
          "HNS gave endpoint {} the ID {}, not {}, and has no HCN to create it under that one: GC and "
          "hnsctl doctor will not take it for this plugin's (docs/engine.md)",
          spec.name, created.id.str(), spec.id.str());
    }
    return created;
  } catch (const std::exception& e) {
    if (!refused(e)) {
      // A create that timed out may still happen; deleting before it does
      // would leave its endpoint behind. One more timeout period is the
      // wait, less when the plugin's deadline is nearer.
      if (has_hresult(e, hns::hr::kTimeout) && !hns::wait_for_abandoned_calls(access.call_policy().wait_limit())) {
        log.error("the timed-out create of endpoint {} is still running; removing it anyway", spec.id.str());
      }
      try {
        access.delete_endpoint(spec.id);
        remove_namesake_made_by_this_call(access, spec, log);
      } catch (const std::exception& cleanup) {
        log.error("could not remove endpoint {} after a failed create: {}", spec.id.str(), cleanup.what());
      }
    }
    throw;
  }
}

}  // namespace wincni::engine
