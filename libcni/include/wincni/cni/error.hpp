#pragma once
// The CNI error: what every failure becomes before it reaches stdout.

#include <stdexcept>
#include <string>

namespace wincni::cni {

// Codes from the CNI spec (research/cni-spec.md §1.6); 100+ are ours.
enum ErrorCode : int {
  kIncompatibleVersion = 1,
  kUnsupportedField = 2,
  kUnknownContainer = 3,
  kInvalidEnvironment = 4,
  kIoFailure = 5,
  kDecodingFailure = 6,
  kInvalidNetworkConfig = 7,
  kTryAgainLater = 11,
  kPluginNotAvailable = 50,
  kPluginLimitedConnectivity = 51,
  kInternal = 999,
  // Plugin-specific: an HNS call failed in a way no spec code describes.
  kHnsFailure = 100,
};

class Error : public std::runtime_error {
 public:
  Error(int code, std::string msg, std::string details = {})
      : std::runtime_error(msg), code_(code), msg_(std::move(msg)), details_(std::move(details)) {}

  int code() const noexcept { return code_; }
  const std::string& msg() const noexcept { return msg_; }
  const std::string& details() const noexcept { return details_; }

 private:
  int code_;
  std::string msg_;
  std::string details_;
};

}  // namespace wincni::cni
