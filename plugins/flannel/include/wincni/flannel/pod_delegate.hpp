#pragma once
// What every flannel command needs to talk to the delegate about one pod:
// which scratch file is the pod's, the delegate config for it now, and a
// saved one read back.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "wincni/cni/env.hpp"
#include "wincni/cni/skel.hpp"
#include "wincni/flannel/flannel_config.hpp"
#include "wincni/flannel/node_address.hpp"
#include "wincni/flannel/scratch_store.hpp"
#include "wincni/flannel/subnet_env.hpp"

namespace wincni::flannel {

// The pod's sandbox ID (sandbox_id, runtime_netns.hpp), which names its
// scratch file; cni::Error 4 when a "container:<id>" netns names no valid
// container ID (it would name a file elsewhere).
std::string scratch_key(const cni::CommandContext& ctx);

// Whether this invocation is the sandbox's own and not a dockershim
// container joining it: only the sandbox's DEL removes the scratch file,
// which the sandbox's own DEL still needs after its containers left.
bool owns_scratch(const cni::CommandContext& ctx);

// delegate_config() for this pod, with the generated Windows policies
// merged in when the config asks for them (serviceCIDR), rendered for the
// HNS API the delegate will use: its apiVersion, else what CNI_NETNS means.
nlohmann::json pod_delegate_config(const FlannelConfig& config, const SubnetEnv& env, const cni::CommandContext& ctx,
                                   const HnsBackend& backend);

// The invocation's environment, which the delegate runs with.
const cni::Environment& delegate_environment(const cni::CommandContext& ctx);

}  // namespace wincni::flannel
