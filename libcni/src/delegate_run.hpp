#pragma once
// The run of a delegate that delegate.hpp's functions and EarlyAdd share.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "wincni/cni/delegate.hpp"

namespace wincni::cni::detail {

// The config a delegate already started waits for (os::ProcessSpec::stdin_later).
using LateConfig = std::function<std::optional<std::string>()>;

// Runs `plugin` for `command` as delegate.hpp describes, with `config` on its
// stdin or, when `late` is set, what `late` returns; its stdout once it has
// succeeded.
std::string run_delegate(std::string_view command, std::string_view plugin, std::string_view config,
                         const LateConfig& late, const Environment& env, const DelegateOptions& options);

// An ADD delegate's stdout as a result: decoded in its own cniVersion, or
// `version` when it prints none.
Result add_result(std::string_view plugin, const std::string& out, std::string_view version);

}  // namespace wincni::cni::detail
