#include "commands/ipam_beside.hpp"

#include "wincni/cni/error.hpp"

namespace wincni::engine {

namespace {

std::string message_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const cni::Error& e) {
    return e.msg();
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an unknown error";
  }
}

}  // namespace

IpamBeside::IpamBeside(const IpamCalls& ipam, Command command, const cni::Logger& log)
    : log_(log), thread_([this, &ipam, command] {
        try {
          (ipam.*command)();
        } catch (...) {
          error_ = std::current_exception();
        }
      }) {}

IpamBeside::~IpamBeside() {
  join();
  if (error_ && !finished_) log_.warn("the IPAM plugin failed as well: {}", message_of(error_));
}

void IpamBeside::join() {
  if (thread_.joinable()) thread_.join();
}

void IpamBeside::finish() {
  join();
  finished_ = true;
  if (error_) std::rethrow_exception(error_);
}

}  // namespace wincni::engine
