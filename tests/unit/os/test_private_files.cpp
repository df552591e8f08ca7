// The private file layer: directories made like mkdir -p, listing, whole-file
// reads, overwrites, exclusive publication through a staging name, removal,
// and I/O failures as os::Error 5 naming the operation and the path.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "thrown_error.hpp"
#include "folder_access.hpp"
#include "scratch_dir.hpp"
#include "wincni/os/error.hpp"
#include "wincni/os/private_files.hpp"

#ifndef _WIN32
#include <sys/stat.h>
#endif

namespace files = wincni::os::private_files;
namespace fs = std::filesystem;
using wincni::os::Error;
using wincni::test::ScratchDir;
using wincni::test::thrown_error;

namespace {

std::string text(const fs::path& path) { return path.generic_string(); }
// As the OS spells it, as errors name it.
std::string native(fs::path path) { return path.make_preferred().string(); }

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void write(const fs::path& path, std::string_view content) { std::ofstream(path, std::ios::binary) << content; }

// An I/O failure: code 5, the message starting with the operation and path.
template <typename Action>
void check_io_failure(std::string_view operation, const std::string& path, Action&& action) {
  const Error e = thrown_error(std::forward<Action>(action));
  CHECK(e.code() == wincni::os::kIoFailure);
  CHECK_MESSAGE(e.msg().rfind(std::string(operation) + " " + path + ": ", 0) == 0, e.msg());
}

}  // namespace

TEST_CASE("join puts one separator between a directory and a name") {
  CHECK(files::join("", "lock") == "lock");
  CHECK(files::join("/var/lib/", "net") == "/var/lib/net");  // '/' separates on Windows too
  const std::string joined = files::join("/var/lib", "net");
  CHECK((joined == "/var/lib/net" || joined == "/var/lib\\net"));
  CHECK(fs::path(joined).filename() == "net");
}

TEST_CASE("split_last is join's inverse: the folder (\".\" for none, a root kept) and the name") {
  const auto split = [](std::string_view path) {
    const files::FolderAndName parts = files::split_last(path);
    return parts.folder + "|" + parts.name;
  };
  CHECK(split("/etc/containerd/config.toml") == "/etc/containerd|config.toml");
  CHECK(split("bundle.zip") == ".|bundle.zip");
  CHECK(split("/config.toml") == "/|config.toml");
  const files::FolderAndName joined = files::split_last(files::join("/var/lib", "net"));
  CHECK(files::join(joined.folder, joined.name) == files::join("/var/lib", "net"));
#ifdef _WIN32
  CHECK(split("C:\\Program Files\\containerd\\config.toml") == "C:\\Program Files\\containerd|config.toml");
  CHECK(split("C:\\config.toml") == "C:\\|config.toml");
#else
  CHECK(split("a\\b") == ".|a\\b");  // a backslash is part of a POSIX name
#endif
}

TEST_CASE("private directories are made with their parents; existing ones are left alone") {
  ScratchDir dir;
  const std::string nested = text(dir.path() / "a" / "b" / "c");
  files::create_private_directories(nested);
  CHECK(fs::is_directory(nested));
  CHECK(files::is_directory(nested));
  files::create_private_directories(nested);  // again: nothing to do
  files::create_private_directories(nested + "/");
  files::create_private_directories("");
  write(dir / "a/b/c/kept", "x");
  files::create_private_directories(text(dir.path() / "a"));
  CHECK(contents(dir / "a/b/c/kept") == "x");

  write(dir / "file", "x");
  CHECK_FALSE(files::is_directory(text(dir / "file")));
  CHECK_FALSE(files::is_directory(text(dir / "missing")));
  // The parent that cannot be a directory is named.
  check_io_failure("mkdir", text(dir / "file"), [&] { files::create_private_directories(text(dir / "file" / "sub")); });
}

TEST_CASE("a regular file is one: not a folder, not a missing name") {
  ScratchDir dir;
  std::ofstream(dir / "file") << "x";
  fs::create_directory(dir / "folder");
  CHECK(files::is_regular_file(text(dir / "file")));
  CHECK_FALSE(files::is_regular_file(text(dir / "folder")));
  CHECK_FALSE(files::is_regular_file(text(dir / "missing")));
  CHECK_FALSE(files::is_regular_file(""));
}

// Windows' links need a privilege (and Wine's are POSIX links underneath),
// so the Win32 branch that follows them has no test of its own.
#ifndef _WIN32
TEST_CASE("POSIX: a link counts as what it leads to; a dangling one as nothing") {
  ScratchDir dir;
  std::ofstream(dir / "file") << "x";
  fs::create_directory(dir / "folder");
  fs::create_symlink(dir / "file", dir / "to-file");
  fs::create_directory_symlink(dir / "folder", dir / "to-folder");
  fs::create_symlink(dir / "missing", dir / "dangling");
  CHECK(files::is_regular_file(text(dir / "to-file")));
  CHECK_FALSE(files::is_regular_file(text(dir / "to-folder")));
  CHECK_FALSE(files::is_regular_file(text(dir / "dangling")));
}
#endif

TEST_CASE("a listing names every entry but . and .., telling regular files apart") {
  ScratchDir dir;
  write(dir / "10.0.0.2", "a");
  write(dir / "lock", "");
  fs::create_directory(dir / "10.0.0.3");
  auto entries = files::list_directory(text(dir.path()));
  std::sort(entries.begin(), entries.end(), [](const auto& x, const auto& y) { return x.name < y.name; });
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].name == "10.0.0.2");
  CHECK(entries[0].regular_file);
  CHECK(entries[1].name == "10.0.0.3");
  CHECK_FALSE(entries[1].regular_file);
  CHECK(entries[2].name == "lock");
  CHECK(entries[2].regular_file);

  CHECK(files::list_directory(text(dir / "10.0.0.3")).empty());
  const std::string missing = text(dir / "missing");
  check_io_failure("open", missing, [&] { files::list_directory(missing); });
}

TEST_CASE("a file is read whole, bytes as they are; a missing one is nullopt") {
  ScratchDir dir;
  const std::string content = std::string("id\r\neth0\n\0tail", 14);
  write(dir / "f", content);
  CHECK(files::read_file(text(dir / "f")) == content);
  write(dir / "big", std::string(5000, 'x'));  // more than one read
  CHECK(files::read_file(text(dir / "big"))->size() == 5000);
  write(dir / "empty", "");
  CHECK(files::read_file(text(dir / "empty")) == "");
  CHECK_FALSE(files::read_file(text(dir / "missing")).has_value());
  const Error directory = thrown_error([&] { files::read_file(text(dir.path())); });
  CHECK(directory.code() == wincni::os::kIoFailure);
  CHECK(directory.msg().find(text(dir.path())) != std::string::npos);
}

TEST_CASE("an overwrite replaces the whole file, also with shorter content") {
  ScratchDir dir;
  const std::string path = text(dir / "last_reserved_ip.0");
  files::overwrite_file(path, "10.0.0.100");
  CHECK(contents(path) == "10.0.0.100");
  files::overwrite_file(path, "10.0.0.9");
  CHECK(contents(path) == "10.0.0.9");
  files::overwrite_file(path, "");
  CHECK(contents(path).empty());
  const std::string nowhere = text(dir / "missing" / "f");
  check_io_failure("open", nowhere, [&] { files::overwrite_file(nowhere, "x"); });
}

TEST_CASE("publication is exclusive, complete and leaves no staging file") {
  ScratchDir dir;
  const std::string d = text(dir.path());
  CHECK(files::publish_file_exclusive(d, "10.0.0.2", ".staging", "a\r\neth0"));
  CHECK(contents(dir / "10.0.0.2") == "a\r\neth0");
  CHECK_FALSE(fs::exists(dir / ".staging"));

  CHECK_FALSE(files::publish_file_exclusive(d, "10.0.0.2", ".staging", "b\r\neth0"));
  CHECK(contents(dir / "10.0.0.2") == "a\r\neth0");
  CHECK_FALSE(fs::exists(dir / ".staging"));

  fs::create_directory(dir / "10.0.0.3");  // a name taken by something else
  CHECK_FALSE(files::publish_file_exclusive(d, "10.0.0.3", ".staging", "c"));
  CHECK_FALSE(fs::exists(dir / ".staging"));

  write(dir / ".staging", "left by a killed writer");
  CHECK(files::publish_file_exclusive(d, "10.0.0.4", ".staging", "d"));
  CHECK(contents(dir / "10.0.0.4") == "d");
  CHECK_FALSE(fs::exists(dir / ".staging"));

  const std::string missing = text(dir / "missing");
  check_io_failure("open", files::join(missing, ".staging"),
                   [&] { files::publish_file_exclusive(missing, "x", ".staging", "x"); });
}

TEST_CASE("removal says whether there was a file") {
  ScratchDir dir;
  write(dir / "f", "x");
  CHECK(files::remove_file(text(dir / "f")));
  CHECK_FALSE(fs::exists(dir / "f"));
  CHECK_FALSE(files::remove_file(text(dir / "f")));
  fs::create_directory(dir / "d");
  check_io_failure("remove", text(dir / "d"), [&] { files::remove_file(text(dir / "d")); });
}

#ifndef _WIN32
TEST_CASE("POSIX: directories 0700 and files 0600, whatever the umask allows") {
  ScratchDir dir;
  const mode_t old_mask = ::umask(0);
  files::create_private_directories(text(dir / "a" / "b"));
  files::overwrite_file(text(dir / "a" / "b" / "hint"), "x");
  CHECK(files::publish_file_exclusive(text(dir / "a" / "b"), "file", ".staging", "x"));
  ::umask(old_mask);
  const auto perms = [](const fs::path& p) { return fs::status(p).permissions() & fs::perms::all; };
  CHECK(perms(dir / "a") == fs::perms::owner_all);
  CHECK(perms(dir / "a" / "b") == fs::perms::owner_all);
  const auto file = fs::perms::owner_read | fs::perms::owner_write;
  CHECK(perms(dir / "a" / "b" / "hint") == file);
  CHECK(perms(dir / "a" / "b" / "file") == file);
}

TEST_CASE("POSIX: a FIFO or a device is refused, not read for ever") {
  ScratchDir dir;
  const std::string fifo = text(dir / "fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  check_io_failure("read", fifo, [&] { files::read_file(fifo); });
  check_io_failure("read", "/dev/zero", [] { files::read_file("/dev/zero"); });
}
#endif

TEST_CASE("a folder only the administrators may change is accepted, also where it does not exist yet") {
  ScratchDir dir;
  files::create_private_directories(text(dir / "data"));
  files::require_administrators_only(text(dir / "data"));
  files::require_administrators_only(text(dir / "data" / "not" / "yet"));
  wincni::test::let_only_administrators_write(dir / "data");
  files::require_administrators_only(text(dir / "data"));
}

TEST_CASE("a folder others may write, or one below a folder they may, is refused with how to fix it") {
  ScratchDir dir;
  files::create_private_directories(text(dir / "open" / "data"));
  wincni::test::let_everyone_write(dir / "open" / "data");
  const Error at_leaf = thrown_error([&] { files::require_administrators_only(text(dir / "open" / "data")); });
  CHECK(at_leaf.code() == wincni::os::kIoFailure);
  CHECK_MESSAGE(at_leaf.msg().find("could replace what a plugin keeps there") != std::string::npos, at_leaf.msg());
  CHECK_MESSAGE(at_leaf.msg().find("data") != std::string::npos, at_leaf.msg());
  // A private folder does not help when whoever may write its parent can
  // rename it away and put their own in its place.
  wincni::test::let_only_administrators_write(dir / "open" / "data");
  wincni::test::let_everyone_write(dir / "open");
  const Error above = thrown_error([&] { files::require_administrators_only(text(dir / "open" / "data")); });
  CHECK_MESSAGE(above.msg().find("could replace what a plugin keeps there") != std::string::npos, above.msg());
  // Nor does a folder not made yet.
  CHECK_THROWS_AS(files::require_administrators_only(text(dir / "open" / "data" / "later")), Error);
#ifdef _WIN32
  CHECK_MESSAGE(above.msg().find("icacls") != std::string::npos, above.msg());
#endif
  wincni::test::let_only_administrators_write(dir / "open");
  files::require_administrators_only(text(dir / "open" / "data"));
}

// private/data (only we may write), open (anyone may), safe (only we may):
// where the link tests put their links and what they lead to.
void make_private_open_and_safe(const ScratchDir& dir) {
  files::create_private_directories(text(dir / "private" / "data"));
  files::create_private_directories(text(dir / "open"));
  files::create_private_directories(text(dir / "safe"));
  wincni::test::let_everyone_write(dir / "open");
}

TEST_CASE("a link on the path is checked as itself, and so is where it leads") {
  ScratchDir dir;
  make_private_open_and_safe(dir);
  // Everything the link leads to is private, but whoever may write the
  // folder it is in can point it anywhere.
  wincni::test::make_folder_link(dir / "open" / "link", dir / "private");
  const Error planted = thrown_error([&] { files::require_administrators_only(text(dir / "open" / "link" / "data")); });
  CHECK(planted.code() == wincni::os::kIoFailure);
  CHECK_MESSAGE(planted.msg().find("could replace what a plugin keeps there") != std::string::npos, planted.msg());
  // The folder the link is in is blamed, not what it leads to.
  CHECK_MESSAGE(planted.msg().rfind(native(dir / "open") + " (above or at", 0) == 0, planted.msg());
  CHECK_THROWS_AS(files::require_administrators_only(text(dir / "open" / "link" / "data" / "later")), Error);
  // Our own link in a folder only we may write is fine...
  wincni::test::make_folder_link(dir / "safe" / "link", dir / "private");
  files::require_administrators_only(text(dir / "safe" / "link" / "data"));
  files::require_administrators_only(text(dir / "safe" / "link" / "data" / "later"));
  // ...as long as what it leads to is.
  wincni::test::let_everyone_write(dir / "private" / "data");
  CHECK_THROWS_AS(files::require_administrators_only(text(dir / "safe" / "link" / "data")), Error);
  wincni::test::let_everyone_write(dir / "private");
  wincni::test::let_only_administrators_write(dir / "private" / "data");
  CHECK_THROWS_AS(files::require_administrators_only(text(dir / "safe" / "link" / "data")), Error);
}

TEST_CASE("a replacement flushed to disk reads back whole, and only an empty folder is removed") {
  ScratchDir dir;
  files::create_private_directories(text(dir / "state"));
  files::replace_file(text(dir / "state"), "host.json", "host.json.tmp", "{\"a\":1}", files::Durability::kFlushed);
  files::replace_file(text(dir / "state"), "host.json", "host.json.tmp", "{\"a\":2}", files::Durability::kFlushed);
  CHECK(files::read_file(text(dir / "state" / "host.json")) == std::optional<std::string>("{\"a\":2}"));
  CHECK_FALSE(fs::exists(dir / "state" / "host.json.tmp"));
  CHECK_FALSE(files::remove_directory_if_empty(text(dir / "state")));  // holds host.json
  CHECK(fs::exists(dir / "state" / "host.json"));
  CHECK(files::remove_file(text(dir / "state" / "host.json")));
  CHECK(files::remove_directory_if_empty(text(dir / "state")));
  CHECK_FALSE(fs::exists(dir / "state"));
  CHECK_FALSE(files::remove_directory_if_empty(text(dir / "state")));  // gone already
}

TEST_CASE("a chain of links is followed one link at a time: a link on the way that others may rewrite is refused") {
  if (wincni::test::running_under_wine()) {
    // Wine gives no reparse data for its links, so the check learns only
    // where a chain ends (docs/reference/windows-acls.md, "Under Wine").
    MESSAGE("Wine cannot show a link's target: not run");
    return;
  }
  ScratchDir dir;
  make_private_open_and_safe(dir);
  // safe/first -> open/second -> private: the first link and where the
  // chain ends are ours, the link in between anyone's to rewrite.
  wincni::test::make_folder_link(dir / "open" / "second", dir / "private");
  wincni::test::make_folder_link(dir / "safe" / "first", dir / "open" / "second");
  const Error chained =
      thrown_error([&] { files::require_administrators_only(text(dir / "safe" / "first" / "data")); });
  CHECK_MESSAGE(chained.msg().rfind(native(dir / "open") + " (above or at", 0) == 0, chained.msg());
  // A relative link is read from the folder it is in.
  wincni::test::make_folder_link(dir / "safe" / "back", fs::path("..") / "private");
  files::require_administrators_only(text(dir / "safe" / "back" / "data"));
  wincni::test::make_folder_link(dir / "safe" / "around", fs::path("..") / "open" / "second");
  CHECK_THROWS_AS(files::require_administrators_only(text(dir / "safe" / "around" / "data")), Error);
}
