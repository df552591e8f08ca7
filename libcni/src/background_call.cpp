#include "wincni/cni/background_call.hpp"

#include <utility>

namespace wincni::cni {

BackgroundCall::BackgroundCall(std::function<void()> work)
    : thread_([this, work = std::move(work)] {
        try {
          work();
        } catch (...) {
          error_ = std::current_exception();
        }
      }) {}

BackgroundCall::~BackgroundCall() { wait(); }

std::exception_ptr BackgroundCall::wait() {
  if (thread_.joinable()) thread_.join();
  return error_;
}

void BackgroundCall::finish() {
  if (std::exception_ptr error = wait()) std::rethrow_exception(error);
}

}  // namespace wincni::cni
