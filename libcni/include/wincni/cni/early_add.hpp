#pragma once
// An ADD delegated before its config is ready. The delegate starts at once,
// on a thread of this object's, and waits for its config on stdin, so that
// its start (a process; on Windows an .exe, which costs more) overlaps what
// the caller does meanwhile: a plugin's IPAM starts while the plugin looks
// up its network in HNS (docs/engine.md, "ADD").
//
// add() hands the config over and gives what delegate_add would, the errors
// of finding and starting the plugin included, at that point and not
// before. The delegate's limit and the budget it is given count from its
// start (os::ProcessSpec::stdin_later), so a config given more than kConfigWait
// after it goes to a fresh delegate instead, with the whole limit.
// Destroyed without add(), the object ends the delegate unfed: it has read
// nothing, so it has done nothing. A delegate that runs in process
// (carried_plugins.hpp) is not started early: it runs in add().

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "wincni/cni/background_call.hpp"
#include "wincni/cni/delegate.hpp"
#include "wincni/cni/env.hpp"
#include "wincni/cni/result.hpp"

namespace wincni::cni {

class EarlyAdd {
 public:
  static constexpr std::chrono::seconds kConfigWait{1};

  // `version` as delegate_add takes it; `options` must stay valid (its sink).
  EarlyAdd(std::string plugin, std::string version, const Environment& env, const DelegateOptions& options = {});
  ~EarlyAdd();
  EarlyAdd(const EarlyAdd&) = delete;
  EarlyAdd& operator=(const EarlyAdd&) = delete;

  // At most once.
  Result add(std::string config);

 private:
  struct Shared;
  std::unique_ptr<Shared> shared_;
  bool given_ = false;                 // add() was called
  std::optional<BackgroundCall> run_;  // last: it starts once the rest exists; none in process
};

}  // namespace wincni::cni
