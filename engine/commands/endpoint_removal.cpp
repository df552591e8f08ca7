#include "commands/endpoint_removal.hpp"

namespace wincni::engine {

void remove_endpoint(HnsAccess& access, const EndpointView& endpoint) {
  for (const Attachment& attachment : access.attachments(endpoint)) access.detach(endpoint, attachment);
  access.delete_endpoint(endpoint.id);
}

}  // namespace wincni::engine
