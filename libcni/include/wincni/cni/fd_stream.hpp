#pragma once
// std::streambufs over the standard file descriptors, through libuv so that
// both platforms behave the same: no CRLF translation on Windows, and a read
// error (stdin is a directory, a broken handle) surfaces as an exception
// instead of looking like end of input. The plugins' skel reads and writes
// through them; hnsctl reads its stdin through one, so that a config piped
// to explain arrives byte for byte as a plugin's would (a text-mode read
// takes bytes of UTF-16 for line ends and an end of file).

#include <array>
#include <streambuf>

namespace wincni::cni {

class FdStreambuf : public std::streambuf {
 public:
  explicit FdStreambuf(int fd);  // a C runtime descriptor (libuv's uv_file)
  ~FdStreambuf() override;
  FdStreambuf(const FdStreambuf&) = delete;
  FdStreambuf& operator=(const FdStreambuf&) = delete;

 protected:
  int_type underflow() override;  // throws std::runtime_error on a read error
  int_type overflow(int_type ch) override;
  int sync() override;

 private:
  bool flush_output();

  int fd_;
  // Left uninitialised on purpose: zeroing 80 KiB for each of three streams
  // was a third of a plugin's start-up.
  std::array<char, 64 * 1024> in_;
  std::array<char, 16 * 1024> out_;
};

}  // namespace wincni::cni
