#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "descriptor_posix.hpp"
#include "wincni/os/read_only_file.hpp"

namespace wincni::os {

struct ReadOnlyFile::Handle {
  platform::Descriptor fd;
};

ReadOnlyFile::ReadOnlyFile(std::unique_ptr<Handle> handle, std::uint64_t size)
    : handle_(std::move(handle)), size_(size) {}
ReadOnlyFile::ReadOnlyFile(ReadOnlyFile&&) noexcept = default;
ReadOnlyFile& ReadOnlyFile::operator=(ReadOnlyFile&&) noexcept = default;
ReadOnlyFile::~ReadOnlyFile() = default;

std::optional<ReadOnlyFile> ReadOnlyFile::open(const std::string& path) {
  int fd;
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  } while (fd < 0 && errno == EINTR);
  auto handle = std::make_unique<Handle>();
  handle->fd = platform::Descriptor(fd);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return ReadOnlyFile(std::move(handle), static_cast<std::uint64_t>(st.st_size));
}

std::size_t ReadOnlyFile::read_some(std::uint64_t offset, char* into, std::size_t length) const {
  for (;;) {
    const ssize_t n = ::pread(handle_->fd.get(), into, length, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    return n > 0 ? static_cast<std::size_t>(n) : 0;
  }
}

}  // namespace wincni::os
