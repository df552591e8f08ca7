#pragma once
// Fault injection, switched on by WINCNI_EMULATOR_FAULTS: a comma-separated
// list of OPERATION:CALL:ACTION, e.g.
//   CreateEndpoint:2:fail=0x803B0001   the 2nd CreateEndpoint fails with that HRESULT
//   ModifyNamespace:1:crash            the 1st ModifyNamespace does its work, then the process ends
//   CreateEndpoint:1:lose=0x800706BE   the 1st CreateEndpoint does its work, then answers that
//                                      HRESULT: the answer was lost on its way back
//   CreateNetwork:1:delay=500          the 1st CreateNetwork waits 500 ms first
//   EnumerateNetworks:3+:hang          the 3rd and every later call never returns
//   QueryEndpointProperties:1:garble   the 1st QueryEndpointProperties does its work, then
//                                      answers text that is not JSON (garble=text is the same)
//   EnumerateEndpoints:1:garble=shape  ... answers JSON whose values all have the wrong type
// CALL is N (the Nth call) or N+ (the Nth and every later one). Calls are
// counted in the state directory, so "the 2nd" means across all processes.
// OPERATION names are the Hcn* verbs without "Hcn" (CreateEndpoint,
// QueryNetworkProperties, ModifyNamespace, ...); HNSCall requests count as
// the same operations (POST /endpoints/ is CreateEndpoint, POST
// /endpoints/<id> and its /attach and /detach are ModifyEndpoint) and GET
// /globals/version is GetVersion.
//
// garble tells whether a client survives HNS answering what it cannot read;
// garbling.hpp says exactly what each form makes of which answer. Like lose,
// it only touches calls that succeeded, and their work is done and stored.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wincni/hns/hresult.hpp"

namespace wincni::hns::emulator {

enum class FaultAction {
  Fail,    // return the HRESULT, change nothing
  Delay,   // sleep, then carry on
  Hang,    // never return (before taking the lock, so others are not blocked)
  Crash,   // do the work, store it, then end the process before returning
  Lose,    // do the work, store it, then return the HRESULT (the answer lost)
  Garble,  // do the work, store it, then answer something unreadable
};

// What a Garble fault makes of the answer (garbling.hpp).
enum class Garbling {
  Text,   // not JSON
  Shape,  // JSON, every value of the wrong type
};

struct Fault {
  std::string operation;
  std::uint64_t call = 1;
  bool and_later = false;
  FaultAction action = FaultAction::Fail;
  HResult hresult = hr::kFail;  // Fail and Lose
  std::uint64_t delay_ms = 0;
  Garbling garbling = Garbling::Text;
};

// std::invalid_argument with a message naming the bad entry.
std::vector<Fault> parse_faults(std::string_view spec);

class FaultPlan {
 public:
  FaultPlan() = default;
  explicit FaultPlan(std::vector<Fault> faults) : faults_(std::move(faults)) {}

  bool empty() const { return faults_.empty(); }
  // Whether calls of `operation` need counting.
  bool watches(std::string_view operation) const;
  // The fault for the `call`th call of `operation` (1-based), if any.
  std::optional<Fault> due(std::string_view operation, std::uint64_t call) const;

 private:
  std::vector<Fault> faults_;
};

}  // namespace wincni::hns::emulator
