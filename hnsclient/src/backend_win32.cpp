// Windows: the real HNS, through the win32 layer.

#include "wincni/hns/backend.hpp"
#include "win32_hcn_api.hpp"

namespace wincni::hns {

std::shared_ptr<HcnApi> default_backend() { return win32::make_win32_hcn_api(); }

}  // namespace wincni::hns
