#include "failure.hpp"
#include "host.hpp"

namespace wincni::hns::emulator {

Guid new_object_id(const Guid& parameter, const Guid& in_settings) {
  if (!parameter.is_null() && !in_settings.is_null() && parameter != in_settings) {
    throw HcnFailure(hr::kInvalidArg,
                     "the Id parameter " + parameter.str() + " and the settings' ID " + in_settings.str() + " differ");
  }
  if (!parameter.is_null()) return parameter;
  return in_settings.is_null() ? Guid::generate() : in_settings;
}

}  // namespace wincni::hns::emulator
