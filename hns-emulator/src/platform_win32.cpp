// The emulator's platform services on Windows, for the emulator DLLs that
// stand in for HNS under Wine (and the in-process emulator of a Windows build).
//
// Paths: a path that starts with '/' is a Unix path and is reached through
// Wine's Z: drive ("/tmp/x" is "Z:\tmp\x"), so that WINCNI_EMULATOR_DIR can
// name the same directory for native and Wine processes. Other paths are
// Windows paths and are used as they are.
//
// Locks: LockFileEx on [0, 2^64-1) of the lock file. Wine hands that to the
// kernel as an fcntl lock with l_start = 0 and l_len = 0 ("to the end and
// beyond"): the very range platform_posix.cpp locks with F_SETLKW, so Wine
// and native processes exclude each other. (A Wine process that finds the
// file locked by a native one polls every 100 ms until it is free.)

#include "platform.hpp"

#include <windows.h>

#include <cstdlib>
#include <system_error>

#include "wincni/cni/utf16.hpp"

namespace wincni::hns::emulator {
namespace {

using cni::narrow;
using cni::widen;

[[noreturn]] void throw_last_error(const std::string& what) {
  throw std::system_error(static_cast<int>(GetLastError()), std::system_category(), what);
}

std::wstring windows_path(const std::string& path) {
  std::wstring wide = widen(path);
  if (wide.empty() || wide.front() != L'/') return wide;
  for (auto& c : wide) {
    if (c == L'/') c = L'\\';
  }
  return L"Z:" + wide;
}

bool is_directory(const std::wstring& path) {
  DWORD attributes = GetFileAttributesW(path.c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY);
}

// Closes the handle when the scope ends, however it ends.
class FileHandle {
 public:
  explicit FileHandle(HANDLE handle) : handle_(handle) {}
  ~FileHandle() {
    if (handle_ != INVALID_HANDLE_VALUE) CloseHandle(handle_);
  }
  FileHandle(const FileHandle&) = delete;
  FileHandle& operator=(const FileHandle&) = delete;
  HANDLE get() const { return handle_; }
  bool valid() const { return handle_ != INVALID_HANDLE_VALUE; }

 private:
  HANDLE handle_;
};

void write_all(HANDLE file, std::string_view content, const std::string& path) {
  while (!content.empty()) {
    DWORD chunk = content.size() > MAXDWORD ? MAXDWORD : static_cast<DWORD>(content.size());
    DWORD written = 0;
    if (!WriteFile(file, content.data(), chunk, &written, nullptr)) throw_last_error("write " + path);
    content.remove_prefix(written);
  }
}

// The whole file, as a Windows byte range: offset 0, length 2^64-1.
constexpr DWORD kWholeFileLow = MAXDWORD;
constexpr DWORD kWholeFileHigh = MAXDWORD;

}  // namespace

FileLock::FileLock(const std::string& path, Mode mode) {
  // Read and write access: Wine needs a readable file for a shared fcntl lock
  // and a writable one for an exclusive lock.
  HANDLE file = CreateFileW(windows_path(path).c_str(), GENERIC_READ | GENERIC_WRITE,
                            FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_ALWAYS,
                            FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file == INVALID_HANDLE_VALUE) throw_last_error("open " + path);
  OVERLAPPED from_start{};
  DWORD flags = mode == Mode::Exclusive ? LOCKFILE_EXCLUSIVE_LOCK : 0;
  if (!LockFileEx(file, flags, 0, kWholeFileLow, kWholeFileHigh, &from_start)) {
    DWORD error = GetLastError();
    CloseHandle(file);
    SetLastError(error);
    throw_last_error("lock " + path);
  }
  handle_ = reinterpret_cast<std::intptr_t>(file);
}

FileLock::~FileLock() {
  HANDLE file = reinterpret_cast<HANDLE>(handle_);
  OVERLAPPED from_start{};
  UnlockFileEx(file, 0, kWholeFileLow, kWholeFileHigh, &from_start);
  CloseHandle(file);
}

std::optional<std::string> read_file(const std::string& path) {
  FileHandle file(CreateFileW(windows_path(path).c_str(), GENERIC_READ,
                              FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                              FILE_ATTRIBUTE_NORMAL, nullptr));
  if (!file.valid()) {
    DWORD error = GetLastError();
    if (error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND) return std::nullopt;
    throw_last_error("open " + path);
  }
  std::string content;
  char buffer[65536];
  for (;;) {
    DWORD got = 0;
    if (!ReadFile(file.get(), buffer, sizeof buffer, &got, nullptr)) throw_last_error("read " + path);
    if (got == 0) break;
    content.append(buffer, got);
  }
  return content;
}

void write_file_atomic(const std::string& path, std::string_view content, Durability durability) {
  std::string temporary = path + ".tmp." + std::to_string(GetCurrentProcessId());
  std::wstring wide_temporary = windows_path(temporary);
  {
    FileHandle file(
        CreateFileW(wide_temporary.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!file.valid()) throw_last_error("open " + temporary);
    try {
      write_all(file.get(), content, temporary);
      if (durability == Durability::Flushed && !FlushFileBuffers(file.get())) {
        throw_last_error("flush " + temporary);
      }
    } catch (...) {
      DeleteFileW(wide_temporary.c_str());
      throw;
    }
  }
  DWORD move_flags = MOVEFILE_REPLACE_EXISTING;
  if (durability == Durability::Flushed) move_flags |= MOVEFILE_WRITE_THROUGH;
  if (!MoveFileExW(wide_temporary.c_str(), windows_path(path).c_str(), move_flags)) {
    DWORD error = GetLastError();
    DeleteFileW(wide_temporary.c_str());
    SetLastError(error);
    throw_last_error("rename " + temporary);
  }
}

void create_empty_file(const std::string& path) {
  FileHandle file(CreateFileW(windows_path(path).c_str(), GENERIC_WRITE,
                              FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_ALWAYS,
                              FILE_ATTRIBUTE_NORMAL, nullptr));
  if (!file.valid()) throw_last_error("create " + path);
}

void remove_file(const std::string& path) {
  if (!DeleteFileW(windows_path(path).c_str())) {
    DWORD error = GetLastError();
    if (error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND) return;
    throw_last_error("remove " + path);
  }
}

void remove_directory_if_empty(const std::string& path) {
  if (!RemoveDirectoryW(windows_path(path).c_str())) {
    DWORD error = GetLastError();
    if (error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND || error == ERROR_DIR_NOT_EMPTY) return;
    throw_last_error("remove directory " + path);
  }
}

std::vector<std::string> list_directory(const std::string& path) {
  std::vector<std::string> names;
  WIN32_FIND_DATAW found;
  HANDLE search = FindFirstFileW((windows_path(path) + L"\\*").c_str(), &found);
  if (search == INVALID_HANDLE_VALUE) {
    DWORD error = GetLastError();
    if (error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND) return names;
    throw_last_error("list " + path);
  }
  do {
    std::wstring_view name = found.cFileName;
    if (name != L"." && name != L"..") names.push_back(narrow(std::wstring(name)));
  } while (FindNextFileW(search, &found));
  DWORD error = GetLastError();
  FindClose(search);
  if (error != ERROR_NO_MORE_FILES) {
    SetLastError(error);
    throw_last_error("list " + path);
  }
  return names;
}

void append_line(const std::string& path, std::string_view line) {
  // Append-only access: every write lands at the end of the file, whoever
  // else appends at the same time.
  FileHandle file(CreateFileW(windows_path(path).c_str(), FILE_APPEND_DATA | SYNCHRONIZE,
                              FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_ALWAYS,
                              FILE_ATTRIBUTE_NORMAL, nullptr));
  if (!file.valid()) throw_last_error("open " + path);
  std::string record(line);
  record += '\n';
  write_all(file.get(), record, path);
}

void make_directories(const std::string& path) {
  if (path.empty()) return;
  std::wstring wide = windows_path(path);
  if (is_directory(wide)) return;
  // Every ancestor after the drive, then the directory itself.
  for (size_t end = 0; end <= wide.size(); ++end) {
    if (end < wide.size() && wide[end] != L'\\' && wide[end] != L'/') continue;
    std::wstring prefix = wide.substr(0, end);
    if (prefix.empty() || prefix.back() == L':' || is_directory(prefix)) continue;
    if (!CreateDirectoryW(prefix.c_str(), nullptr) && GetLastError() != ERROR_ALREADY_EXISTS) {
      throw_last_error("create directory " + narrow(prefix));
    }
  }
  if (!is_directory(wide)) {
    SetLastError(ERROR_DIRECTORY);
    throw_last_error("create directory " + path);
  }
}

void end_process_now(int exit_code) {
  // Not ExitProcess: that would run the DLLs' detach code and static
  // destructors, and a crash runs nothing.
  TerminateProcess(GetCurrentProcess(), static_cast<UINT>(exit_code));
  std::abort();
}

void sleep_milliseconds(std::uint64_t milliseconds) {
  while (milliseconds > 0) {
    DWORD chunk = milliseconds >= INFINITE ? INFINITE - 1 : static_cast<DWORD>(milliseconds);
    Sleep(chunk);
    milliseconds -= chunk;
  }
}

std::optional<std::string> environment_variable(const char* name) {
  // The wide API: getenv would give the ANSI code page's rendering.
  std::wstring wide_name = widen(name);
  std::wstring value;
  for (;;) {
    SetLastError(ERROR_SUCCESS);
    DWORD length = GetEnvironmentVariableW(wide_name.c_str(), value.data(), static_cast<DWORD>(value.size()));
    if (length == 0) {
      if (GetLastError() == ERROR_ENVVAR_NOT_FOUND) return std::nullopt;
      return std::string();
    }
    if (length < value.size()) {  // fitted; length excludes the terminator
      value.resize(length);
      return narrow(value);
    }
    value.assign(length, L'\0');  // the size it needs, terminator included
  }
}

}  // namespace wincni::hns::emulator
