#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>

#include "wincni/os/file_times.hpp"

namespace wincni::os::file_times {

namespace {

constexpr std::int64_t kNanosecondsPerSecond = 1'000'000'000;

}  // namespace

bool entry_exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 || (errno != ENOENT && errno != ENOTDIR);
}

std::optional<std::int64_t> last_write_time_ns(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::int64_t{st.st_mtim.tv_sec} * kNanosecondsPerSecond + st.st_mtim.tv_nsec;
}

bool set_last_write_time_ns(const std::string& path, std::int64_t ns) {
  struct timespec times[2]{};
  times[0].tv_nsec = UTIME_OMIT;  // the access time stays
  times[1].tv_sec = static_cast<time_t>(ns / kNanosecondsPerSecond);
  times[1].tv_nsec = static_cast<long>(ns % kNanosecondsPerSecond);
  return ::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0 && last_write_time_ns(path) == ns;
}

}  // namespace wincni::os::file_times
