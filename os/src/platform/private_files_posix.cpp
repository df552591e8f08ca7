#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "descriptor_posix.hpp"
#include "wincni/os/error.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::os::private_files {

namespace {

constexpr mode_t kPrivateFile = 0600;
constexpr mode_t kPrivateDir = 0700;

[[noreturn]] void fail(std::string_view op, const std::string& path, int err) {
  // ELOOP from O_NOFOLLOW: the name is a link, which writes never follow.
  if (err == ELOOP) throw Error(kIoFailure, fmt::format("{} {}: a symbolic link, refused", op, path));
  throw Error(kIoFailure, fmt::format("{} {}: {}", op, path, std::strerror(err)));
}

// O_NONBLOCK: opening a FIFO (for reading with no writer, for writing with
// no reader) would otherwise wait for ever; regular files ignore it.
int open_retrying(const std::string& path, int flags, mode_t mode = 0) {
  int fd;
  do {
    fd = ::open(path.c_str(), flags | O_CLOEXEC | O_NONBLOCK, mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

void write_all(int fd, std::string_view content, const std::string& path) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write", path, errno);
    }
    content.remove_prefix(static_cast<size_t>(n));
  }
}

void fill(platform::Descriptor& fd, std::string_view content, const std::string& path) {
  write_all(fd.get(), content, path);
  if (fd.close() != 0) fail("close", path, errno);
}

// A private file with `content`, removed again when writing fails.
void write_staged(const std::string& staged, std::string_view content, Durability durability = Durability::kCached) {
  platform::Descriptor fd(open_retrying(staged, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, kPrivateFile));
  if (fd.get() < 0) fail("open", staged, errno);
  try {
    write_all(fd.get(), content, staged);
    if (durability == Durability::kFlushed && ::fsync(fd.get()) != 0) fail("fsync", staged, errno);
    if (fd.close() != 0) fail("close", staged, errno);
  } catch (...) {
    ::unlink(staged.c_str());
    throw;
  }
}

bool rename_unsupported(int err) { return err == EINVAL || err == ENOSYS || err == ENOTSUP || err == EPERM; }

}  // namespace

std::string join(std::string_view dir, std::string_view name) {
  std::string out(dir);
  if (!out.empty() && out.back() != '/') out += '/';
  out += name;
  return out;
}

FolderAndName split_last(std::string_view path) {
  const std::size_t separator = path.find_last_of("/");
  if (separator == std::string_view::npos) return {".", std::string(path)};
  const bool at_root = separator == 0 || (separator == 2 && path[1] == ':');
  return {std::string(path.substr(0, at_root ? separator + 1 : separator)), std::string(path.substr(separator + 1))};
}

bool starts_at_root(std::string_view path) { return !path.empty() && path.front() == '/'; }

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_link(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

void create_private_directories(const std::string& path) {
  if (path.empty() || is_directory(path)) return;
  const auto slash = path.find_last_of('/', path.size() - 2);
  if (slash != std::string::npos && slash > 0) create_private_directories(path.substr(0, slash));
  if (::mkdir(path.c_str(), kPrivateDir) != 0 && !(errno == EEXIST && is_directory(path))) {
    fail("mkdir", path, errno);
  }
}

std::vector<DirEntry> list_directory(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) fail("open", path, errno);
  std::vector<DirEntry> entries;
  errno = 0;
  while (const dirent* e = ::readdir(dir)) {
    const std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    bool regular = e->d_type == DT_REG;
    if (e->d_type == DT_UNKNOWN) {
      struct stat st {};
      regular = ::fstatat(::dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
    }
    entries.push_back({std::string(name), regular});
  }
  const int err = errno;
  ::closedir(dir);
  if (err != 0) fail("readdir", path, err);
  return entries;
}

std::optional<std::string> read_file(const std::string& path) { return read_file(path, SIZE_MAX); }

std::optional<std::string> read_file(const std::string& path, std::size_t max_bytes) {
  platform::Descriptor fd(open_retrying(path, O_RDONLY));
  if (fd.get() < 0) {
    if (errno == ENOENT) return std::nullopt;
    fail("open", path, errno);
  }
  // Only regular files end: a FIFO, /dev/zero or a terminal (a config
  // naming one, such as host-local's resolvConf) would be read for ever.
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) fail("stat", path, errno);
  if (!S_ISREG(st.st_mode)) throw Error(kIoFailure, fmt::format("read {}: not a regular file", path));
  const auto too_big = [&] {
    return FileTooLarge(kIoFailure, fmt::format("read {}: more than {} bytes", path, max_bytes));
  };
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) throw too_big();
  std::string content;
  char buffer[512];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("read", path, errno);
    }
    if (n == 0) break;
    if (static_cast<std::size_t>(n) > max_bytes - content.size()) throw too_big();  // it grew
    content.append(buffer, static_cast<size_t>(n));
  }
  return content;
}

void overwrite_file(const std::string& path, std::string_view content) {
  // Written over in place, then cut to length, rather than opened with
  // O_TRUNC: ext4 flushes a file truncated to zero and rewritten when it is
  // closed, which made this one write a tenth of a host-local ADD.
  platform::Descriptor fd(open_retrying(path, O_WRONLY | O_CREAT | O_NOFOLLOW, kPrivateFile));
  if (fd.get() < 0) fail("open", path, errno);
  write_all(fd.get(), content, path);
  if (::ftruncate(fd.get(), static_cast<off_t>(content.size())) != 0) fail("truncate", path, errno);
  if (fd.close() != 0) fail("close", path, errno);
}

bool publish_file_exclusive(const std::string& dir, std::string_view name, std::string_view staging,
                            std::string_view content) {
  const std::string target = join(dir, name);
  const std::string staged = join(dir, staging);
  write_staged(staged, content);
  if (::renameat2(AT_FDCWD, staged.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0) return true;
  const int err = errno;
  ::unlink(staged.c_str());
  if (err == EEXIST) return false;
  if (!rename_unsupported(err)) fail("rename", target, err);

  platform::Descriptor fd(open_retrying(target, O_WRONLY | O_CREAT | O_EXCL, kPrivateFile));
  if (fd.get() < 0) {
    if (errno == EEXIST) return false;
    fail("open", target, errno);
  }
  try {
    fill(fd, content, target);
  } catch (...) {
    ::unlink(target.c_str());
    throw;
  }
  return true;
}

void replace_file(const std::string& dir, std::string_view name, std::string_view staging, std::string_view content,
                  Durability durability) {
  const std::string target = join(dir, name);
  const std::string staged = join(dir, staging);
  write_staged(staged, content, durability);
  if (::rename(staged.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(staged.c_str());
    fail("rename", target, err);
  }
  if (durability == Durability::kCached) return;
  // The rename itself reaches the disk with its folder.
  platform::Descriptor folder(open_retrying(dir.empty() ? "." : dir, O_RDONLY | O_DIRECTORY));
  if (folder.get() >= 0) ::fsync(folder.get());
}

void move_over(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) fail("rename", from, errno);
}

bool remove_file(const std::string& path) {
  if (::unlink(path.c_str()) == 0) return true;
  if (errno == ENOENT) return false;
  fail("remove", path, errno);
}

bool remove_directory_if_empty(const std::string& path) {
  if (::rmdir(path.c_str()) == 0) return true;
  if (errno == ENOENT || errno == ENOTEMPTY || errno == EEXIST) return false;
  fail("remove", path, errno);
}

}  // namespace wincni::os::private_files
