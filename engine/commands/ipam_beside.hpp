#pragma once
// An IPAM command run on a thread of its own while the plugin asks HNS, for
// the commands that only look (STATUS, CHECK): IPAM's answer does not depend
// on HNS's, so the delegate's start and run overlap the HNS calls instead of
// following them (docs/benchmarks.md, section 8).
//
// finish() waits for the delegate and rethrows its error. A command that
// fails before calling it still waits for the delegate (the destructor), so
// no delegate outlives the command, and the command's own error is the one
// reported, as when IPAM was asked last; IPAM's error, if it failed too, is
// logged as a warning.

#include "commands/ipam_calls.hpp"
#include "wincni/cni/background_call.hpp"
#include "wincni/cni/log.hpp"
#include "wincni/hns/call_policy.hpp"

namespace wincni::engine {

class IpamBeside {
 public:
  using Command = void (IpamCalls::*)() const;

  // Starts `command` of `ipam`; both `ipam` and `log` must outlive this
  // object.
  IpamBeside(const IpamCalls& ipam, Command command, const cni::Logger& log);
  ~IpamBeside();
  IpamBeside(const IpamBeside&) = delete;
  IpamBeside& operator=(const IpamBeside&) = delete;

  void finish();

 private:
  const cni::Logger& log_;
  hns::SleepWhileWaiting sleep_while_waiting_;
  bool finished_ = false;
  cni::BackgroundCall call_;
};

}  // namespace wincni::engine
