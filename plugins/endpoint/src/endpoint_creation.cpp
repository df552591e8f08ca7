#include "endpoint_creation.hpp"

#include "wincni/hns/hns_error.hpp"

namespace wincni::endpoint {

namespace {

bool already_exists(const std::exception& error) {
  const auto* hns_error = dynamic_cast<const hns::HnsError*>(&error);
  return hns_error != nullptr && hns_error->hresult() == hns::hr::kAlreadyExists;
}

}  // namespace

EndpointView create_endpoint_with_id(HnsHost& host, const EndpointSpec& spec, const NetworkView& network,
                                     const cni::Logger& log) {
  try {
    return host.create_endpoint(spec, network);
  } catch (const std::exception& e) {
    if (!already_exists(e)) {
      try {
        host.delete_endpoint(spec.id);
      } catch (const std::exception& cleanup) {
        log.error("could not remove endpoint {} after a failed create: {}", spec.id.str(), cleanup.what());
      }
    }
    throw;
  }
}

}  // namespace wincni::endpoint
