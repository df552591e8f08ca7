#pragma once
// A call run on a thread of its own, for work that overlaps the caller's (a
// delegate beside HNS calls). The thread never outlives the object: the
// destructor waits for it, and whatever the call threw stays here until
// finish() rethrows it or wait() hands it over.

#include <exception>
#include <functional>
#include <thread>

namespace wincni::cni {

class BackgroundCall {
 public:
  // Starts `work` at once; what it touches must outlive this object.
  explicit BackgroundCall(std::function<void()> work);
  ~BackgroundCall();
  BackgroundCall(const BackgroundCall&) = delete;
  BackgroundCall& operator=(const BackgroundCall&) = delete;

  // Waits for the call and rethrows what it threw.
  void finish();
  // Waits for the call; what it threw, or null.
  std::exception_ptr wait();

 private:
  std::exception_ptr error_;
  std::thread thread_;  // last: it starts once error_ exists
};

}  // namespace wincni::cni
