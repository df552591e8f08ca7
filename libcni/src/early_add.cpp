#include "wincni/cni/early_add.hpp"

#include <condition_variable>
#include <mutex>
#include <optional>
#include <utility>

#include "delegate_run.hpp"
#include "in_process_delegate.hpp"
#include "wincni/cni/error.hpp"

namespace wincni::cni {

// What the caller and the delegate's thread share: the config once decided
// (nullopt: none is coming), and the result.
struct EarlyAdd::Shared {
  Shared(std::string plugin_name, std::string result_version, const Environment& environment,
         const DelegateOptions& delegate_options)
      : plugin(std::move(plugin_name)),
        version(std::move(result_version)),
        env(environment),
        options(delegate_options) {}

  std::string plugin;
  std::string version;
  Environment env;
  DelegateOptions options;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

  std::mutex mutex;
  std::condition_variable decided_changed;
  bool decided = false;
  std::optional<std::string> config;

  std::optional<Result> result;

  void decide(std::optional<std::string> given) {
    {
      std::lock_guard<std::mutex> guard(mutex);
      decided = true;
      config = std::move(given);
    }
    decided_changed.notify_all();
  }

  // Called on the delegate's thread once it has started, again for each
  // further start: the config itself stays for that.
  std::optional<std::string> wait_for_config() {
    std::unique_lock<std::mutex> lock(mutex);
    decided_changed.wait(lock, [&] { return decided; });
    return config;
  }

  void run() {
    const std::string out = detail::run_delegate(
        "ADD", plugin, "", [this] { return wait_for_config(); }, env, options);
    result = detail::add_result(plugin, out, version);
  }
};

EarlyAdd::EarlyAdd(std::string plugin, std::string version, const Environment& env, const DelegateOptions& options)
    : shared_(std::make_unique<Shared>(std::move(plugin), std::move(version), env, options)) {
  // A delegate run in process has no start to overlap: it runs in add(), on
  // the caller's thread, and a thread of its own would only cost.
  if (!detail::delegate_runs_in_process(shared_->plugin, shared_->env)) {
    run_.emplace([shared = shared_.get()] { shared->run(); });
  }
}

EarlyAdd::~EarlyAdd() {
  if (given_ || !run_) return;
  shared_->decide(std::nullopt);
  run_->wait();  // what an unfed delegate's run threw is no one's concern
}

Result EarlyAdd::add(std::string config) {
  if (given_) throw Error(kInternal, "an early ADD's config was given twice");
  given_ = true;
  const Shared& shared = *shared_;
  if (!run_) return delegate_add(shared.plugin, config, shared.version, shared.env, shared.options);
  if (std::chrono::steady_clock::now() - shared.started > kConfigWait) {
    shared_->decide(std::nullopt);
    run_->wait();
    return delegate_add(shared.plugin, config, shared.version, shared.env, shared.options);
  }
  shared_->decide(std::move(config));
  run_->finish();
  return std::move(*shared_->result);
}

}  // namespace wincni::cni
