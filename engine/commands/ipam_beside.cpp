#include "commands/ipam_beside.hpp"

#include <exception>
#include <string>

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
    : log_(log), call_([&ipam, command] { (ipam.*command)(); }) {}

IpamBeside::~IpamBeside() {
  if (finished_) return;
  if (const std::exception_ptr error = call_.wait()) log_.warn("the IPAM plugin failed as well: {}", message_of(error));
}

void IpamBeside::finish() {
  finished_ = true;
  call_.finish();
}

}  // namespace wincni::engine
