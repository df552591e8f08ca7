#include "filter.hpp"

#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/guid.hpp"

namespace wincni::hns::emulator {
namespace {

bool same_value(const nlohmann::json& wanted, const nlohmann::json& actual) {
  if (wanted.is_string() && actual.is_string()) {
    const auto& a = wanted.get_ref<const std::string&>();
    const auto& b = actual.get_ref<const std::string&>();
    return a == b || same_guid(a, b);
  }
  return wanted == actual;
}

}  // namespace

bool matches_filter(const nlohmann::json& filter, const nlohmann::json& v2_view, const nlohmann::json& v1_view) {
  for (const auto& [key, wanted] : filter.items()) {
    const nlohmann::json* actual = cni::find_key(v2_view, key);
    if (!actual) actual = cni::find_key(v1_view, key);
    // A property the object lacks reads as false/absent: {"IsDefault":false}
    // matches an object that never says IsDefault.
    if (!actual) {
      if (wanted == false) continue;
      return false;
    }
    if (!same_value(wanted, *actual)) return false;
  }
  return true;
}

}  // namespace wincni::hns::emulator
