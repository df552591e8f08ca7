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

}  // namespace

EndpointView create_endpoint_with_id(HnsAccess& access, const EndpointSpec& spec, const NetworkView& network,
                                     const cni::Logger& log) {
  try {
    return access.create_endpoint(spec, network);
  } catch (const std::exception& e) {
    if (!refused(e)) {
      // A create that timed out may still happen; deleting before it does
      // would leave its endpoint behind. One more timeout period is the wait.
      if (has_hresult(e, hns::hr::kTimeout) &&
          !hns::wait_for_abandoned_calls(hns::CallPolicy::from_environment().timeout)) {
        log.error("the timed-out create of endpoint {} is still running; removing it anyway", spec.id.str());
      }
      try {
        access.delete_endpoint(spec.id);
      } catch (const std::exception& cleanup) {
        log.error("could not remove endpoint {} after a failed create: {}", spec.id.str(), cleanup.what());
      }
    }
    throw;
  }
}

}  // namespace wincni::engine
