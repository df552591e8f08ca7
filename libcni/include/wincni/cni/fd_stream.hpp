#pragma once
// A std::streambuf that reads a standard file descriptor through the byte
// streams of byte_streams.hpp. hnsctl (a tool, with iostreams anyway) reads
// its stdin through one, so that a config piped to explain arrives byte for
// byte as a plugin's would (a text-mode read takes bytes of UTF-16 for line
// ends and an end of file). The plugins use the byte streams themselves.

#include <array>
#include <streambuf>

#include "wincni/cni/byte_streams.hpp"

namespace wincni::cni {

class FdInputStreambuf : public std::streambuf {
 public:
  explicit FdInputStreambuf(int fd) : source_(fd) {}  // a C runtime descriptor
  FdInputStreambuf(const FdInputStreambuf&) = delete;
  FdInputStreambuf& operator=(const FdInputStreambuf&) = delete;

 protected:
  int_type underflow() override;  // throws std::runtime_error on a read error

 private:
  DescriptorSource source_;
  // Left uninitialised: a read fills what is used of it.
  std::array<char, 64 * 1024> in_;
};

}  // namespace wincni::cni
