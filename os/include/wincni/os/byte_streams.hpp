#pragma once
// Plain byte streams for what a plugin reads and writes: its stdin, stdout
// and stderr, a log's stderr share, a delegate's forwarded stderr. Not
// std::iostream: constructing any stream object brings in the C++ runtime's
// locales, which were more than a third of each plugin's .exe
// (docs/benchmarks.md, section 6).
//
// The descriptor versions behave the same on both platforms: bytes as they
// are (no CRLF translation on Windows), the end of a pipe whose writer is
// gone as the end of input, and any other read error (stdin is a directory,
// a broken handle) as an exception instead of looking like the end of input.
// Not through libuv: its first use on Windows initialises all of it
// (Winsock included), which a plugin that starts no child never needs.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace wincni::os {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to `size` bytes into `buffer`; 0 only at the end. Throws
  // std::runtime_error when the source cannot be read.
  virtual std::size_t read(char* buffer, std::size_t size) = 0;
};

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  // All of `bytes`; false when they could not all be written. Never throws
  // for the descriptor: a plugin that cannot write has no one to tell.
  virtual bool write(std::string_view bytes) = 0;
};

// A C runtime descriptor (0, 1, 2 or one of _open's), read or written
// unbuffered.
class DescriptorSource : public ByteSource {
 public:
  explicit DescriptorSource(int fd) : fd_(fd) {}
  std::size_t read(char* buffer, std::size_t size) override;

 private:
  int fd_;
};

class DescriptorSink : public ByteSink {
 public:
  explicit DescriptorSink(int fd) : fd_(fd) {}
  bool write(std::string_view bytes) override;

 private:
  int fd_;
};

// For tests and for callers that keep what was written.
class StringSource : public ByteSource {
 public:
  explicit StringSource(std::string text) : text_(std::move(text)) {}
  std::size_t read(char* buffer, std::size_t size) override {
    const std::size_t count = text_.copy(buffer, size, offset_);
    offset_ += count;
    return count;
  }

 private:
  std::string text_;
  std::size_t offset_ = 0;
};

class StringSink : public ByteSink {
 public:
  bool write(std::string_view bytes) override {
    text.append(bytes);
    return true;
  }
  std::string text;
};

// The whole of `source`.
std::string read_all(ByteSource& source);
// All of `source` when it holds at most `limit` bytes; nullopt as soon as it
// holds more (the rest is not read).
std::optional<std::string> read_at_most(ByteSource& source, std::size_t limit);

}  // namespace wincni::os
