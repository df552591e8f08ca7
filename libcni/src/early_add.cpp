#include "wincni/cni/early_add.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <utility>

#include "delegate_run.hpp"
#include "wincni/cni/error.hpp"

namespace wincni::cni {

// What the caller and the delegate's thread share: the config once decided
// (nullopt: none is coming), and what the run came to.
struct EarlyAdd::Shared {
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
  std::exception_ptr error;

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
};

EarlyAdd::EarlyAdd(std::string plugin, std::string version, const Environment& env, const DelegateOptions& options)
    : shared_(std::make_shared<Shared>()) {
  shared_->plugin = std::move(plugin);
  shared_->version = std::move(version);
  shared_->env = env;
  shared_->options = options;
  thread_ = std::thread([shared = shared_] {
    try {
      const std::string out = detail::run_delegate("ADD", shared->plugin, "", [&] { return shared->wait_for_config(); },
                                                   shared->env, shared->options);
      shared->result = detail::add_result(shared->plugin, out, shared->version);
    } catch (...) {
      shared->error = std::current_exception();
    }
  });
}

EarlyAdd::~EarlyAdd() {
  if (!thread_.joinable()) return;
  shared_->decide(std::nullopt);
  thread_.join();
}

Result EarlyAdd::add(std::string config) {
  if (!thread_.joinable()) throw Error(kInternal, "an early ADD's config was given twice");
  const Shared& shared = *shared_;
  if (std::chrono::steady_clock::now() - shared.started > kConfigWait) {
    shared_->decide(std::nullopt);
    thread_.join();
    return delegate_add(shared.plugin, config, shared.version, shared.env, shared.options);
  }
  shared_->decide(std::move(config));
  thread_.join();
  if (shared.error) std::rethrow_exception(shared.error);
  return std::move(*shared_->result);
}

}  // namespace wincni::cni
