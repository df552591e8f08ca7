#include <windows.h>

#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"
#include "wincni/endpoint/file_lock.hpp"

namespace wincni::endpoint {

namespace {

std::wstring widen(const std::string& text) {
  if (text.empty()) return {};
  const int length = MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), nullptr, 0);
  std::wstring wide(static_cast<size_t>(length), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), wide.data(), length);
  return wide;
}

[[noreturn]] void fail(const std::string& what, const std::string& path, DWORD error) {
  throw cni::Error(cni::kIoFailure, fmt::format("cannot {} {}: Windows error {}", what, path, error));
}

}  // namespace

FileLock::FileLock(const std::string& path) {
  const std::filesystem::path wide_path(widen(path));
  std::error_code ignored;
  std::filesystem::create_directories(wide_path.parent_path(), ignored);
  HANDLE file = CreateFileW(wide_path.c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                            nullptr, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file == INVALID_HANDLE_VALUE) fail("open the lock file", path, GetLastError());
  OVERLAPPED from_start{};
  if (!LockFileEx(file, LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &from_start)) {
    const DWORD error = GetLastError();
    CloseHandle(file);
    fail("lock", path, error);
  }
  handle_ = reinterpret_cast<std::intptr_t>(file);
}

FileLock::~FileLock() { CloseHandle(reinterpret_cast<HANDLE>(handle_)); }  // closing releases the lock

}  // namespace wincni::endpoint
