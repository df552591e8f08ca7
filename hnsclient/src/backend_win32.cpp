// Windows: the real HNS, through the win32 layer.

#include "wincni/hns/backend.hpp"
#include "win32_hcn_api.hpp"

namespace wincni::hns {

std::shared_ptr<HcnApi> default_backend() { return win32::make_win32_hcn_api(); }

std::string default_data_dir(const cni::Environment& env) {
  const std::string program_data = env.get_or("ProgramData", "");
  return (program_data.empty() ? std::string("C:\\ProgramData") : program_data) + "\\wincni";
}

}  // namespace wincni::hns
