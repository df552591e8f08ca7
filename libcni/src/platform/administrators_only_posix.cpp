// Whether someone other than root could replace a folder a plugin keeps its
// state in, read from the owners and modes of its real path's folders.

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"
#include "wincni/cni/private_files.hpp"

namespace wincni::cni::private_files {

namespace {

[[noreturn]] void check_failed(std::string_view op, const std::string& path, int err) {
  throw Error(kIoFailure, fmt::format("{} {}: {}", op, path, std::strerror(err)));
}

}  // namespace

void require_administrators_only(const std::string& path) {
  // The part that exists: what does not is created private.
  std::string existing = path;
  while (!existing.empty() && !is_directory(existing)) {
    const auto slash = existing.find_last_of('/');
    existing = slash == std::string::npos ? std::string() : existing.substr(0, slash == 0 ? 1 : slash);
    if (slash == 0) break;
  }
  if (existing.empty()) return;
  char resolved[PATH_MAX];
  if (::realpath(existing.c_str(), resolved) == nullptr) check_failed("resolve", existing, errno);
  std::string folder = resolved;
  const uid_t self = ::geteuid();
  for (;;) {
    struct stat st {};
    if (::stat(folder.c_str(), &st) != 0) check_failed("stat", folder, errno);
    const bool others_may_write = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0;
    if ((st.st_uid != 0 && st.st_uid != self) || others_may_write) {
      throw Error(kIoFailure,
                  fmt::format("{} (above or at {}) is owned by uid {} with mode {:04o}: someone other than root could "
                              "replace what a plugin keeps there; make it root's and not writable by group or others",
                              folder, path, st.st_uid, st.st_mode & 07777));
    }
    if (folder == "/") return;
    const auto slash = folder.find_last_of('/');
    folder = slash == 0 ? "/" : folder.substr(0, slash);
  }
}

}  // namespace wincni::cni::private_files
