#include "wincni/cni/fd_stream.hpp"

#include <stdexcept>
#include <string>

#include <uv.h>

namespace wincni::cni {

namespace {

// libuv's synchronous fs calls want a loop though they never run it; one for
// the whole process, made on first use, because each loop costs an epoll
// instance, a pipe and an eventfd at start-up.
uv_loop_t& sync_io_loop() {
  static uv_loop_t* loop = [] {
    static uv_loop_t storage;
    if (int rc = uv_loop_init(&storage); rc != 0) {
      throw std::runtime_error(std::string("uv_loop_init: ") + uv_strerror(rc));
    }
    return &storage;
  }();
  return *loop;
}

}  // namespace

FdStreambuf::FdStreambuf(int fd) : fd_(fd) { setp(out_.data(), out_.data() + out_.size()); }

FdStreambuf::~FdStreambuf() { flush_output(); }

FdStreambuf::int_type FdStreambuf::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  uv_buf_t buf = uv_buf_init(in_.data(), static_cast<unsigned int>(in_.size()));
  uv_fs_t req;
  const int n = uv_fs_read(&sync_io_loop(), &req, fd_, &buf, 1, -1, nullptr);
  uv_fs_req_cleanup(&req);
  if (n < 0) throw std::runtime_error(uv_strerror(n));
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
  char* begin = pbase();
  while (begin < pptr()) {
    uv_buf_t buf = uv_buf_init(begin, static_cast<unsigned int>(pptr() - begin));
    uv_fs_t req;
    const int n = uv_fs_write(&sync_io_loop(), &req, fd_, &buf, 1, -1, nullptr);
    uv_fs_req_cleanup(&req);
    if (n <= 0) return false;
    begin += n;
  }
  setp(out_.data(), out_.data() + out_.size());
  return true;
}

}  // namespace wincni::cni
