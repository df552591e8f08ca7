#include "platform.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <system_error>
#include <thread>

namespace wincni::hns::emulator {
namespace {

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

void write_all(int fd, std::string_view content, const std::string& path) {
  while (!content.empty()) {
    ssize_t written = ::write(fd, content.data(), content.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      throw_errno("write " + path);
    }
    content.remove_prefix(static_cast<size_t>(written));
  }
}

std::string parent_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

FileLock::FileLock(const std::string& path, Mode mode) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw_errno("open " + path);
  struct flock range {};
  range.l_type = mode == Mode::Exclusive ? F_WRLCK : F_RDLCK;
  range.l_whence = SEEK_SET;  // l_start = l_len = 0: the whole file
  while (::fcntl(fd, F_SETLKW, &range) != 0) {
    if (errno == EINTR) continue;
    int saved = errno;
    ::close(fd);
    errno = saved;
    throw_errno("lock " + path);
  }
  handle_ = fd;
}

FileLock::~FileLock() {
  // Closing drops every fcntl lock this process holds on the file.
  ::close(static_cast<int>(handle_));
}

std::optional<std::string> read_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw_errno("open " + path);
  }
  std::string content;
  char buffer[65536];
  for (;;) {
    ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) continue;
      int saved = errno;
      ::close(fd);
      errno = saved;
      throw_errno("read " + path);
    }
    if (got == 0) break;
    content.append(buffer, static_cast<size_t>(got));
  }
  ::close(fd);
  return content;
}

void write_file_atomic(const std::string& path, std::string_view content, Durability durability) {
  // One fixed name: writers hold the state lock, and a writer killed
  // half-way leaves a file the next one simply overwrites.
  std::string temporary = path + ".tmp";
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw_errno("open " + temporary);
  try {
    write_all(fd, content, temporary);
    if (durability == Durability::Flushed && ::fsync(fd) != 0) throw_errno("fsync " + temporary);
  } catch (...) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::unlink(temporary.c_str());
    errno = saved;
    throw_errno("rename " + temporary);
  }
  if (durability == Durability::Deferred) return;
  // The rename itself must reach the disk too.
  int directory = ::open(parent_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory >= 0) {
    ::fsync(directory);
    ::close(directory);
  }
}

void create_empty_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw_errno("create " + path);
  ::close(fd);
}

void remove_file(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) throw_errno("remove " + path);
}

void remove_directory_if_empty(const std::string& path) {
  if (::rmdir(path.c_str()) != 0 && errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST) {
    throw_errno("remove directory " + path);
  }
}

std::vector<std::string> list_directory(const std::string& path) {
  std::vector<std::string> names;
  DIR* directory = ::opendir(path.c_str());
  if (!directory) {
    if (errno == ENOENT) return names;
    throw_errno("open directory " + path);
  }
  while (const dirent* entry = ::readdir(directory)) {
    std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  ::closedir(directory);
  return names;
}

void append_line(const std::string& path, std::string_view line) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw_errno("open " + path);
  std::string record(line);
  record += '\n';
  try {
    write_all(fd, record, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

void make_directories(const std::string& path) {
  if (path.empty()) return;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) return;
    errno = ENOTDIR;
    throw_errno("create directory " + path);
  }
  std::string parent = parent_of(path);
  if (parent != path) make_directories(parent);
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) throw_errno("create directory " + path);
}

void end_process_now(int exit_code) { ::_exit(exit_code); }

void sleep_milliseconds(std::uint64_t milliseconds) {
  std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
}

std::optional<std::string> environment_variable(const char* name) {
  const char* value = std::getenv(name);
  if (!value) return std::nullopt;
  return std::string(value);
}

}  // namespace wincni::hns::emulator
