#pragma once
// How emulator code reports what HNS would refuse: the HRESULT HNS returns,
// plus a detail for the journal (HNS's own error text carries none).

#include <stdexcept>
#include <string>

#include "wincni/hns/hresult.hpp"

namespace wincni::hns::emulator {

class HcnFailure : public std::runtime_error {
 public:
  HcnFailure(HResult code, const std::string& detail) : std::runtime_error(detail), code_(code) {}
  HResult code() const noexcept { return code_; }

 private:
  HResult code_;
};

}  // namespace wincni::hns::emulator
