#pragma once
// A std::streambuf over a standard file descriptor, by the descriptor
// streams of byte_streams.hpp. hnsctl (a tool, with iostreams anyway) reads
// its stdin through one, so that a config piped to explain arrives byte for
// byte as a plugin's would (a text-mode read takes bytes of UTF-16 for line
// ends and an end of file). The plugins use the byte streams themselves.

#include <array>
#include <streambuf>

#include "wincni/cni/byte_streams.hpp"

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

  DescriptorSource source_;
  DescriptorSink sink_;
  // Left uninitialised on purpose: zeroing 80 KiB for each of three streams
  // was a third of a plugin's start-up.
  std::array<char, 64 * 1024> in_;
  std::array<char, 16 * 1024> out_;
};

}  // namespace wincni::cni
