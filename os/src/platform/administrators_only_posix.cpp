// Whether someone other than root could replace a folder a plugin keeps its
// state in. The path is resolved the way the kernel resolves it, one entry
// at a time and one symbolic link at a time, and every entry met is checked
// by its owner and mode (lstat: a link as itself): the folders on the way,
// each link, and the folders each link leads through.

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <deque>
#include <string>

#include <fmt/format.h>

#include "wincni/os/error.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::os::private_files {

namespace {

// As the kernel's own limit on links in one lookup (MAXSYMLINKS).
constexpr int kMostLinks = 40;

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

// The names of `path`, in order, put before what `pending` holds.
void push_names_front(const std::string& path, std::deque<std::string>& pending) {
  std::deque<std::string> names;
  std::size_t at = 0;
  while (at < path.size()) {
    const std::size_t start = path.find_first_not_of('/', at);
    if (start == std::string::npos) break;
    const std::size_t stop = std::min(path.find('/', start), path.size());
    names.push_back(path.substr(start, stop - start));
    at = stop;
  }
  pending.insert(pending.begin(), names.begin(), names.end());
}

std::string read_link(const std::string& link) {
  std::string target(PATH_MAX, '\0');
  const ssize_t size = ::readlink(link.c_str(), target.data(), target.size());
  if (size < 0) check_failed("read the link", link, errno);
  target.resize(static_cast<std::size_t>(size));
  return target;
}

void check_root(const std::string& path) {
  struct stat st {};
  if (::lstat("/", &st) != 0) check_failed("stat", "/", errno);
  check_entry("/", path, st);
}

}  // namespace

void require_administrators_only(const std::string& path) {
  std::string given = path;
  if (given.empty() || given[0] != '/') {
    char cwd[PATH_MAX];
    if (::getcwd(cwd, sizeof cwd) == nullptr) check_failed("find the current folder for", path, errno);
    given = std::string(cwd) + "/" + given;
  }
  std::deque<std::string> pending;
  push_names_front(given, pending);
  // `at` never holds a link: each is replaced by where it leads as it is
  // met, so ".." is simply the folder above.
  std::string at = "/";
  check_root(path);
  int links = 0;
  while (!pending.empty()) {
    const std::string name = pending.front();
    pending.pop_front();
    if (name == ".") continue;
    if (name == "..") {
      const auto slash = at.find_last_of('/');
      at = slash == 0 || slash == std::string::npos ? "/" : at.substr(0, slash);
      continue;
    }
    const std::string entry = at == "/" ? "/" + name : at + "/" + name;
    struct stat st {};
    if (::lstat(entry.c_str(), &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR) return;  // the rest is created private
      check_failed("stat", entry, errno);
    }
    check_entry(entry, path, st);
    if (S_ISLNK(st.st_mode)) {
      if (++links > kMostLinks) refuse(entry, path, fmt::format("leads through more than {} links", kMostLinks));
      const std::string target = read_link(entry);
      if (!target.empty() && target[0] == '/') at = "/";
      push_names_front(target, pending);
      continue;
    }
    at = entry;
  }
}

}  // namespace wincni::os::private_files
