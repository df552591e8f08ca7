#include "wincni/cni/fd_stream.hpp"

namespace wincni::cni {

FdInputStreambuf::int_type FdInputStreambuf::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  const std::size_t n = source_.read(in_.data(), in_.size());
  if (n == 0) return traits_type::eof();
  setg(in_.data(), in_.data(), in_.data() + n);
  return traits_type::to_int_type(*gptr());
}

}  // namespace wincni::cni
