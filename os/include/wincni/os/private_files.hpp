#pragma once
// The files a plugin keeps on the node, one small file per address or per
// container (host-local's reservations, flannel's saved configs), private to
// the node's administrators: 0700 directories and 0600 files on POSIX, a
// protected ACL for SYSTEM and the Administrators on Windows (the default ACL
// of a drive root lets every authenticated user create and read folders
// there). private_files_posix.cpp and private_files_win32.cpp hold the
// platform differences (modes vs ACLs, directory walking, renaming without
// replacing). Locking is FileLock's.
//
// Paths are UTF-8. Failures throw cni::Error(kIoFailure) whose message names
// the operation and the path ("open /var/lib/x: Permission denied").

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wincni/os/error.hpp"

namespace wincni::os::private_files {

// dir/name: '/' on POSIX, '\' on Windows, none added when dir is empty or
// already ends in a separator (on Windows '/' is one too).
std::string join(std::string_view dir, std::string_view name);

// join's inverse: the folder a path names a file in and the file's name,
// split at the last separator ('/'; on Windows '\' too). The folder is "."
// when the path has none, and keeps a root's separator ("/x": "/").
struct FolderAndName {
  std::string folder;
  std::string name;
};
FolderAndName split_last(std::string_view path);

// A path that does not depend on the working directory (System32 for a
// Windows service, whatever folder the runtime runs in): "/x" on POSIX; on
// Windows "C:\x" or "C:/x", "\\server\share", or "\x" and "/x" (the
// current drive's root, as the reference plugins' defaults are written).
// A drive-relative "C:x" is not one.
bool starts_at_root(std::string_view path);

// Like mkdir -p; what it creates is private. Existing directories are left
// as they are.
void create_private_directories(const std::string& path);

// cni::Error(kIoFailure) when someone other than the node's administrators
// could replace `path` or a folder on the way to it. The path is resolved as
// the OS does, one link at a time, and each entry met is checked as itself:
// on POSIX a folder owned by another user than root or this process's, or
// writable by group or others without the sticky bit, or a link owned by
// another user; on Windows an entry owned by someone other than SYSTEM, the
// Administrators, TrustedInstaller or this process's user, or whose DACL
// lets anyone else delete, rename or re-own it or a child, rewrite a link,
// or (`path` itself) add to it or make it a junction
// (docs/reference/windows-acls.md). Whoever can rename a folder there can
// hand a plugin a store of their making, with links in it. Checks the part
// of `path` that exists.
void require_administrators_only(const std::string& path);
bool is_directory(const std::string& path);
// A file, not a directory or a device, following links; false when absent.
bool is_regular_file(const std::string& path);
// A symbolic link (on Windows any reparse point: a link or a junction),
// not followed; false when absent.
bool is_link(const std::string& path);

struct DirEntry {
  std::string name;
  bool regular_file = false;  // false for directories, links and devices
};
// Every entry but "." and "..", in no particular order.
std::vector<DirEntry> list_directory(const std::string& path);

// The whole file; nullopt when it does not exist. On POSIX anything but a
// regular file is refused, so a FIFO or a device named by a config cannot
// block or feed the plugin for ever.
std::optional<std::string> read_file(const std::string& path);
// The same, for a file that holds at most `max_bytes`: FileTooLarge as soon
// as it is found to hold more, without reading on.
std::optional<std::string> read_file(const std::string& path, std::size_t max_bytes);
struct FileTooLarge : Error {
  using Error::Error;
};

// Creates or truncates a private file. Not atomic: for hints a reader
// tolerates torn. Like every write here, never through a link: a link (or
// junction) at the name is refused, so that a plugin running as root or
// SYSTEM cannot be made to write wherever someone pointed it.
void overwrite_file(const std::string& path, std::string_view content);

// Publishes `content` as dir/name only when nothing has that name yet, so that
// a process killed at any instant leaves the file complete or absent: it is
// written to dir/staging, then renamed without replacing. False when the name
// is taken. Falls back to create-exclusive-then-write on file systems that
// cannot rename without replacing (a kill there can leave an empty file).
// Nothing is fsynced: a power loss can still leave an empty file, and it
// also ends every container, so a caller must treat an empty file as
// unowned (host-local's DEL and GC release them); an fsync per ADD would
// cost more than the whole ADD.
bool publish_file_exclusive(const std::string& dir, std::string_view name, std::string_view staging,
                            std::string_view content);

// Whether a write must be on the disk before it returns: kCached leaves it
// to the OS (a power loss, which also ends every container, may lose it);
// kFlushed flushes the file before the rename and the rename after it (the
// HNS emulator's state, which outlives the processes that wrote it).
enum class Durability { kCached, kFlushed };

// Publishes `content` as dir/name, replacing what is there, so that a reader
// (or a process killed at any instant) sees the old content or the new one,
// never a mix: written to dir/staging, then renamed over the name. The
// staging name must be unique to the writer (its process ID in it); on
// failure it is removed. Not fsynced unless kFlushed, as above.
void replace_file(const std::string& dir, std::string_view name, std::string_view staging, std::string_view content,
                  Durability durability = Durability::kCached);

// False when there was nothing to remove.
bool remove_file(const std::string& path);
// Removes a directory that holds nothing; one that is gone or holds
// something is left as it is (false).
bool remove_directory_if_empty(const std::string& path);

// Renames `from` to `to`, replacing what `to` was (a log rotated aside).
void move_over(const std::string& from, const std::string& to);

}  // namespace wincni::os::private_files
