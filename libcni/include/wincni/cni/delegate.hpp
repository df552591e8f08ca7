#pragma once
// Delegation to another plugin (IPAM, or the plugin flannel wraps): found in
// CNI_PATH, run with our whole environment but CNI_COMMAND, fed the config.

#include <chrono>
#include <string>
#include <string_view>

#include "wincni/cni/env.hpp"
#include "wincni/cni/result.hpp"

namespace wincni::cni {

struct DelegateOptions {
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};
};

// ADD: the delegate's result, decoded in its own cniVersion (or `version`
// when it prints none). Errors keep the delegate's code; a timeout is code 11.
Result delegate_add(std::string_view plugin, std::string_view config, std::string_view version,
                    const Environment& env, const DelegateOptions& options = {});
void delegate_del(std::string_view plugin, std::string_view config, const Environment& env,
                  const DelegateOptions& options = {});
void delegate_check(std::string_view plugin, std::string_view config, const Environment& env,
                    const DelegateOptions& options = {});
void delegate_gc(std::string_view plugin, std::string_view config, const Environment& env,
                 const DelegateOptions& options = {});
void delegate_status(std::string_view plugin, std::string_view config, const Environment& env,
                     const DelegateOptions& options = {});

}  // namespace wincni::cni
