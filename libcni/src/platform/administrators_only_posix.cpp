// Whether someone other than root could replace a folder a plugin keeps its
// state in, read from the owners and modes of the folders on its path as
// given (a symbolic link checked as itself) and, when a link is on it, of the
// folders it leads to.

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"
#include "wincni/cni/private_files.hpp"

namespace wincni::cni::private_files {

namespace {

[[noreturn]] void check_failed(std::string_view op, const std::string& path, int err) {
  throw Error(kIoFailure, fmt::format("{} {}: {}", op, path, std::strerror(err)));
}

[[noreturn]] void refuse(const std::string& entry, const std::string& path, const std::string& why) {
  throw Error(kIoFailure,
              fmt::format("{} (above or at {}) {}: someone other than root could replace what a plugin keeps there; "
                          "make it root's and not writable by group or others",
                          entry, path, why));
}

// A link's own mode means nothing; who owns it decides who may replace it in
// a sticky folder (the folder's own mode is checked as its entry).
void check_entry(const std::string& entry, const std::string& path, const struct stat& st) {
  const uid_t self = ::geteuid();
  const bool trusted_owner = st.st_uid == 0 || st.st_uid == self;
  if (S_ISLNK(st.st_mode)) {
    if (!trusted_owner) refuse(entry, path, fmt::format("is a link owned by uid {}", st.st_uid));
    return;
  }
  const bool others_may_write = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0;
  if (!trusted_owner || others_may_write) {
    refuse(entry, path, fmt::format("is owned by uid {} with mode {:04o}", st.st_uid, st.st_mode & 07777));
  }
}

// The path's own entries from "/" down, as far as they exist, each with
// what lstat says of it.
std::vector<std::pair<std::string, struct stat>> existing_entries(const std::string& path) {
  std::string full = path;
  if (full.empty() || full[0] != '/') {
    char cwd[PATH_MAX];
    if (::getcwd(cwd, sizeof cwd) == nullptr) check_failed("find the current folder for", path, errno);
    full = std::string(cwd) + "/" + full;
  }
  std::vector<std::pair<std::string, struct stat>> entries;
  std::string prefix = "/";
  std::size_t at = 0;
  for (;;) {
    struct stat st {};
    if (::lstat(prefix.c_str(), &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR) return entries;
      check_failed("stat", prefix, errno);
    }
    entries.emplace_back(prefix, st);
    std::size_t start = full.find_first_not_of('/', at);
    if (start == std::string::npos) return entries;
    const std::size_t stop = std::min(full.find('/', start), full.size());
    if (prefix.back() != '/') prefix += '/';
    prefix += full.substr(start, stop - start);
    at = stop;
  }
}

}  // namespace

void require_administrators_only(const std::string& path) {
  const auto entries = existing_entries(path);
  bool through_link = false;
  for (const auto& [entry, st] : entries) {
    through_link = through_link || S_ISLNK(st.st_mode);
    check_entry(entry, path, st);
  }
  if (!through_link) return;
  // Where the links lead, up to "/".
  char resolved[PATH_MAX];
  if (::realpath(entries.back().first.c_str(), resolved) == nullptr) {
    check_failed("resolve", entries.back().first, errno);
  }
  std::string folder = resolved;
  for (;;) {
    struct stat st {};
    if (::lstat(folder.c_str(), &st) != 0) check_failed("stat", folder, errno);
    check_entry(folder, path, st);
    if (folder == "/") return;
    const auto slash = folder.find_last_of('/');
    folder = slash == 0 ? "/" : folder.substr(0, slash);
  }
}

}  // namespace wincni::cni::private_files
