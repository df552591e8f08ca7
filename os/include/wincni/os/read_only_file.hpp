#pragma once
// A file read in pieces at given offsets, never written: what reading a few
// headers of a large file (an executable's identity, cni/plugin_identity.hpp)
// needs, where reading the whole file would cost more than the work it saves.
// read_only_file_posix.cpp and read_only_file_win32.cpp hold the two sides.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace wincni::os {

class ReadOnlyFile {
 public:
  // nullopt when `path` (UTF-8) cannot be opened for reading or is not a
  // regular file (a FIFO, a device, a folder): the caller treats it as a file
  // it knows nothing of.
  static std::optional<ReadOnlyFile> open(const std::string& path);

  ReadOnlyFile(ReadOnlyFile&&) noexcept;
  ReadOnlyFile& operator=(ReadOnlyFile&&) noexcept;
  ~ReadOnlyFile();

  std::uint64_t size() const { return size_; }
  // Up to `length` bytes from `offset`: fewer at the end of the file, none
  // past it or when reading fails.
  std::string read_at(std::uint64_t offset, std::size_t length) const;

 private:
  // One positioned read into `into`; 0 at the end or on a failure. The
  // platform's part (read_only_file_posix.cpp, _win32.cpp).
  std::size_t read_some(std::uint64_t offset, char* into, std::size_t length) const;

  struct Handle;
  ReadOnlyFile(std::unique_ptr<Handle> handle, std::uint64_t size);
  std::unique_ptr<Handle> handle_;
  std::uint64_t size_ = 0;
};

}  // namespace wincni::os
