#include "wincni/hns/seam.hpp"

namespace wincni::hns {

std::string_view object_name(HcnObject kind) {
  switch (kind) {
    case HcnObject::Network:
      return "Network";
    case HcnObject::Endpoint:
      return "Endpoint";
    case HcnObject::Namespace:
      return "Namespace";
    case HcnObject::LoadBalancer:
      return "LoadBalancer";
    case HcnObject::SdnRoute:
      return "SdnRoute";
  }
  return "Object";
}

}  // namespace wincni::hns
