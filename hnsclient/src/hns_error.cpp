#include "wincni/hns/hns_error.hpp"

#include <cctype>

#include <fmt/format.h>

namespace wincni::hns {
namespace {

std::string trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  return std::string(text);
}

std::string describe(HResult code, const std::string& hns_text) {
  std::string text = trimmed(hns_text);
  if (text.empty()) text = hresult_message(code);
  std::string_view name = hresult_name(code);
  if (code == hr::kOk) return text;  // v1 Success:false carries no code
  return name.empty() ? fmt::format("{} ({})", text, hresult_hex(code))
                      : fmt::format("{} ({} {})", text, name, hresult_hex(code));
}

int cni_code_for(HResult code) {
  // The runtime retries a sandbox on "try again later"; that is the right
  // advice while HNS restarts or hangs.
  return is_transient(code) || is_maybe_executed(code) || code == hr::kTimeout ? cni::kTryAgainLater : cni::kHnsFailure;
}

}  // namespace

bool is_not_found(HResult code) {
  return code == hr::kNetworkNotFound || code == hr::kEndpointNotFound || code == hr::kElementNotFound;
}

bool is_refusal(HResult code) {
  // HNS's own codes, but for those that can come after part of the work.
  if (code == hr::kDegradedOperation || code == hr::kRegkeyFailure || code == hr::kNamespaceAttachFailed) return false;
  if ((code & 0xFFFF0000U) == 0x803B0000U) return true;
  return code == hr::kAlreadyExists || code == hr::kDupName || code == hr::kObjectAlreadyExists ||
         code == hr::kInvalidArg || code == hr::kElementNotFound;
}

bool is_transient(HResult code) {
  return code == hr::kRpcServerUnavailable || code == hr::kRpcServerTooBusy || code == hr::kRpcCallFailedDne ||
         code == hr::kManagerStopped;
}

bool is_maybe_executed(HResult code) { return code == hr::kRpcCallFailed; }

HnsError::HnsError(HResult code, const std::string& operation, const std::string& object, const std::string& hns_text)
    : cni::Error(cni_code_for(code), fmt::format("{}{}{} failed: {}", operation, object.empty() ? "" : " for ", object,
                                                 describe(code, hns_text))),
      hresult_(code) {}

HnsError HnsError::after_work(HResult code, const std::string& operation, const std::string& object,
                              const std::string& hns_text) {
  HnsError error(code, operation, object, hns_text);
  error.after_work_ = true;
  return error;
}

HnsError HnsError::unreadable_answer(const std::string& operation, const std::string& object, const std::string& text) {
  return after_work(hr::kInvalidJson, operation, object, text);
}

HnsError HnsError::v1_refusal(const std::string& operation, const std::string& object, const std::string& hns_text) {
  HnsError error(hr::kOk, operation, object, hns_text);
  error.v1_refusal_ = true;
  return error;
}

}  // namespace wincni::hns
