// The byte streams' descriptor versions (through libuv's synchronous file
// calls, the same on both platforms) and read_all.

#include "wincni/cni/byte_streams.hpp"

#include <algorithm>
#include <limits>
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

// What one libuv call takes (its length is an unsigned int, its result an int).
unsigned int one_call_size(std::size_t size) {
  return static_cast<unsigned int>(std::min<std::size_t>(size, std::numeric_limits<int>::max()));
}

}  // namespace

std::size_t DescriptorSource::read(char* buffer, std::size_t size) {
  uv_buf_t buf = uv_buf_init(buffer, one_call_size(size));
  uv_fs_t req;
  const int n = uv_fs_read(&sync_io_loop(), &req, fd_, &buf, 1, -1, nullptr);
  uv_fs_req_cleanup(&req);
  if (n < 0) throw std::runtime_error(uv_strerror(n));
  return static_cast<std::size_t>(n);
}

bool DescriptorSink::write(std::string_view bytes) {
  uv_loop_t* loop = nullptr;
  try {
    loop = &sync_io_loop();
  } catch (...) {
    return false;  // as the contract says: not written
  }
  while (!bytes.empty()) {
    uv_buf_t buf = uv_buf_init(const_cast<char*>(bytes.data()), one_call_size(bytes.size()));
    uv_fs_t req;
    const int n = uv_fs_write(loop, &req, fd_, &buf, 1, -1, nullptr);
    uv_fs_req_cleanup(&req);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::string read_all(ByteSource& source) {
  std::string data;
  char block[16 * 1024];
  while (const std::size_t n = source.read(block, sizeof block)) data.append(block, n);
  return data;
}

}  // namespace wincni::cni
