#pragma once
// The suite's one exception type. It lives in the lowest room so that a
// failure deep in a file, a lock or a child process reaches a plugin's stdout
// with its code unchanged; its codes are the CNI spec's and ours
// (wincni/cni/error.hpp, docs/error-codes.md). The OS layer itself uses two.

#include <stdexcept>
#include <string>

namespace wincni::os {

enum OsErrorCode : int {
  // The CNI spec's "failure to perform I/O": every file, lock, descriptor and
  // child process failure of this layer.
  kIoFailure = 5,
  // The CNI spec's "try again later": a lock still held when the wait ends.
  kTryAgainLater = 11,
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

}  // namespace wincni::os
