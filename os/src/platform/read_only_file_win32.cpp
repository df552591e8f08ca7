#include <windows.h>

#include <algorithm>

#include "wincni/os/read_only_file.hpp"
#include "wincni/os/utf16.hpp"
#include "wincni/os/win32_handle.hpp"

namespace wincni::os {

struct ReadOnlyFile::Handle {
  Win32Handle file{INVALID_HANDLE_VALUE};
};

ReadOnlyFile::ReadOnlyFile(std::unique_ptr<Handle> handle, std::uint64_t size)
    : handle_(std::move(handle)), size_(size) {}
ReadOnlyFile::ReadOnlyFile(ReadOnlyFile&&) noexcept = default;
ReadOnlyFile& ReadOnlyFile::operator=(ReadOnlyFile&&) noexcept = default;
ReadOnlyFile::~ReadOnlyFile() = default;

std::optional<ReadOnlyFile> ReadOnlyFile::open(const std::string& path) {
  auto handle = std::make_unique<Handle>();
  // Shared as a running .exe is: the file may be executing or being replaced.
  handle->file =
      Win32Handle(CreateFileW(widen(path).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                              nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr));
  if (!handle->file.valid() || GetFileType(handle->file.get()) != FILE_TYPE_DISK) return std::nullopt;
  BY_HANDLE_FILE_INFORMATION info{};
  if (!GetFileInformationByHandle(handle->file.get(), &info) ||
      (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0) {
    return std::nullopt;
  }
  const std::uint64_t size = (static_cast<std::uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
  return ReadOnlyFile(std::move(handle), size);
}

std::size_t ReadOnlyFile::read_some(std::uint64_t offset, char* into, std::size_t length) const {
  OVERLAPPED at{};
  at.Offset = static_cast<DWORD>(offset);
  at.OffsetHigh = static_cast<DWORD>(offset >> 32);
  DWORD n = 0;
  const DWORD want = static_cast<DWORD>(std::min<std::size_t>(length, 1u << 20));
  return ReadFile(handle_->file.get(), into, want, &n, &at) ? n : 0;
}

}  // namespace wincni::os
