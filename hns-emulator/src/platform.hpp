#pragma once
// The few operating-system services the emulator needs, behind one small
// interface so that the same emulator builds natively (POSIX, here) and as
// Windows DLLs (LockFileEx / MoveFileEx, later). Wine maps LockFileEx onto
// POSIX byte-range locks, which is why POSIX uses fcntl locks and not flock:
// native and Wine processes then exclude each other on one state directory.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wincni::hns::emulator {

// A byte-range lock on the whole of a lock file, held for the object's life.
// Shared for readers, exclusive for writers; blocks until granted.
class FileLock {
 public:
  enum class Mode { Shared, Exclusive };
  FileLock(const std::string& path, Mode mode);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  std::intptr_t handle_;
};

// nullopt when the file does not exist; throws std::system_error otherwise.
std::optional<std::string> read_file(const std::string& path);
// Readers see the old content or the new, never a mix, even if the process
// dies half-way: write `<path>.tmp`, flush it to disk (unless Deferred),
// rename it over. The caller holds a lock that keeps other writers of `path`
// out. Deferred is for files a durable commit record can write again.
enum class Durability { Flushed, Deferred };
void write_file_atomic(const std::string& path, std::string_view content, Durability durability = Durability::Flushed);
// An empty file; one that exists already stays as it is.
void create_empty_file(const std::string& path);
// Nothing happens when the file is already gone.
void remove_file(const std::string& path);
// Nothing happens when the directory is gone or holds anything.
void remove_directory_if_empty(const std::string& path);
// The names in a directory (no "." or ".."); none when it does not exist.
std::vector<std::string> list_directory(const std::string& path);
// One write per line so that lines from concurrent processes never interleave.
void append_line(const std::string& path, std::string_view line);
void make_directories(const std::string& path);

[[noreturn]] void end_process_now(int exit_code);
void sleep_milliseconds(std::uint64_t milliseconds);
std::optional<std::string> environment_variable(const char* name);

}  // namespace wincni::hns::emulator
