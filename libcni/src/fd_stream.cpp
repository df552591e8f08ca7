#include "wincni/cni/fd_stream.hpp"

namespace wincni::cni {

FdStreambuf::FdStreambuf(int fd) : source_(fd), sink_(fd) { setp(out_.data(), out_.data() + out_.size()); }

FdStreambuf::~FdStreambuf() { flush_output(); }

FdStreambuf::int_type FdStreambuf::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  const std::size_t n = source_.read(in_.data(), in_.size());
  if (n == 0) return traits_type::eof();
  setg(in_.data(), in_.data(), in_.data() + n);
  return traits_type::to_int_type(*gptr());
}

FdStreambuf::int_type FdStreambuf::overflow(int_type ch) {
  if (!flush_output()) return traits_type::eof();
  if (!traits_type::eq_int_type(ch, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(ch);
    pbump(1);
  }
  return traits_type::not_eof(ch);
}

int FdStreambuf::sync() { return flush_output() ? 0 : -1; }

bool FdStreambuf::flush_output() {
  const bool written = sink_.write(std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())));
  setp(out_.data(), out_.data() + out_.size());
  return written;
}

}  // namespace wincni::cni
