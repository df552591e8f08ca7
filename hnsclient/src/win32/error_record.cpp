#include "error_record.hpp"

#include <nlohmann/json.hpp>

namespace wincni::hns::win32 {

std::string error_record_saying(HResult code, std::string_view message) {
  // The trailing blank and the field order are HNS's (see error_record()).
  nlohmann::ordered_json record = {{"Success", false}, {"Error", std::string(message) + " "}, {"ErrorCode", code}};
  return record.dump();
}

}  // namespace wincni::hns::win32
