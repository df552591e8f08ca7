#pragma once
// A file that several processes append lines to (a shared log). Each
// append() lands whole at the end, never interleaved with or overwriting
// another writer's: O_APPEND on POSIX; on Windows a byte-range lock far past
// the end of the file around seek-to-end-and-write, because Wine (unlike
// Windows) loses lines that several append-only handles write at once.

#include <cstdint>
#include <string>
#include <string_view>

namespace wincni::os {

class AppendFile {
 public:
  // Opens or creates `path` (UTF-8), private, never through a link.
  // is_open() is false on failure, and error() says why.
  explicit AppendFile(const std::string& path);
  ~AppendFile();
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;

  bool is_open() const { return handle_ != kClosed; }
  // Its size in bytes when it was opened; 0 when it is not open.
  std::uint64_t size() const { return size_; }
  const std::string& error() const { return error_; }

  // Best effort: a log line that cannot be written is dropped.
  void append(std::string_view text);

 private:
  static constexpr std::intptr_t kClosed = -1;
  std::intptr_t handle_ = kClosed;
  std::uint64_t size_ = 0;
  std::string error_;
};

}  // namespace wincni::os
