#pragma once
// A failed HNS call as the plugins report it: a cni::Error whose message
// names the operation, the object and HNS's own error text, e.g.
//   HcnCreateEndpoint for endpoint "abc_cbr0" on network "cbr0" failed:
//   An address provided is invalid or reserved. (HCN_E_ADDR_INVALID_OR_RESERVED 0x803B002F)

#include <string>

#include "wincni/cni/error.hpp"
#include "wincni/hns/hresult.hpp"

namespace wincni::hns {

// Missing objects, as either API reports them.
bool is_not_found(HResult code);
// HNS turned the call down and did nothing: its own codes (facility 0x3B)
// and the Win32 errors it answers bad or conflicting input with. Anything
// else (E_FAIL, an RPC failure, a timeout) may have come after the work.
bool is_refusal(HResult code);
// HNS restarting or too busy: the call never ran, so it can be repeated.
bool is_transient(HResult code);
// The call may or may not have run (RPC_S_CALL_FAILED): only repeat it if
// running it twice does no harm.
bool is_maybe_executed(HResult code);

class HnsError : public cni::Error {
 public:
  // `operation` "HcnCreateEndpoint", `object` "endpoint \"abc_cbr0\"";
  // `hns_text` the Error of HNS's error record or envelope ("" if none).
  HnsError(HResult code, const std::string& operation, const std::string& object, const std::string& hns_text);

  // A failure after HNS had done the work: whatever the code, no refusal.
  static HnsError after_work(HResult code, const std::string& operation, const std::string& object,
                             const std::string& hns_text);
  // An answer the client could not read (HCN_E_INVALID_JSON): the call may
  // have done its work.
  static HnsError unreadable_answer(const std::string& operation, const std::string& object, const std::string& text);
  // {"Success":false} from HNS v1 about an object it still lists: HNS turned
  // the request down, in words of the host's language.
  static HnsError v1_refusal(const std::string& operation, const std::string& object, const std::string& hns_text);

  HResult hresult() const noexcept { return hresult_; }
  bool not_found() const noexcept { return is_not_found(hresult_); }
  // HNS turned the call down (is_refusal, or v1's {"Success":false}), as
  // opposed to failing after the work or answering what cannot be read.
  bool refused() const noexcept { return v1_refusal_ || (!after_work_ && is_refusal(hresult_)); }

 private:
  HResult hresult_;
  bool after_work_ = false;
  bool v1_refusal_ = false;
};

}  // namespace wincni::hns
