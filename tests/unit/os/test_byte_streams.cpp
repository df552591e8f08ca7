// The descriptor byte streams: a plugin's stdin, stdout and stderr.

#include <doctest/doctest.h>

#include <fcntl.h>

#include <fstream>
#include <string>

#ifdef _WIN32
#include <io.h>
#else
#include <signal.h>
#include <unistd.h>
#endif

#include "file_text.hpp"
#include "scratch_dir.hpp"
#include "wincni/os/byte_streams.hpp"

using wincni::os::DescriptorSink;
using wincni::os::DescriptorSource;
using wincni::os::read_all;

namespace {

#ifdef _WIN32
// In text mode, as the C runtime opens a file unless told otherwise and as
// a console program's standard descriptors are.
int open_for_writing(const std::string& path) { return _open(path.c_str(), _O_WRONLY | _O_CREAT | _O_TEXT, 0600); }
int open_for_reading(const std::string& path) { return _open(path.c_str(), _O_RDONLY | _O_TEXT); }
int close_descriptor(int fd) { return _close(fd); }
bool make_pipe(int fds[2]) { return _pipe(fds, 4096, _O_TEXT) == 0; }
#else
int open_for_writing(const std::string& path) { return open(path.c_str(), O_WRONLY | O_CREAT, 0600); }
int open_for_reading(const std::string& path) { return open(path.c_str(), O_RDONLY); }
int close_descriptor(int fd) { return close(fd); }
bool make_pipe(int fds[2]) { return pipe(fds) == 0; }
#endif

// Line ends of both kinds, a NUL, Ctrl-Z (the end of a file to a text-mode
// read), a byte that is no ASCII.
constexpr char kBytes[] = "line one\nline two\r\n\x00\x1a\xff end";
const std::string kAll(kBytes, sizeof kBytes - 1);

}  // namespace

TEST_CASE("a descriptor sink writes the bytes as they are, line ends included") {
  wincni::test::ScratchDir dir;
  const std::string path = (dir / "out").string();
  const int fd = open_for_writing(path);
  REQUIRE(fd >= 0);
  CHECK(DescriptorSink(fd).write(kAll));
  CHECK(DescriptorSink(fd).write(""));
  REQUIRE(close_descriptor(fd) == 0);
  CHECK(wincni::test::file_text(dir / "out") == kAll);
}

TEST_CASE("a descriptor source reads the bytes as they are, to the end") {
  wincni::test::ScratchDir dir;
  const std::string path = (dir / "in").string();
  // Written apart from the sink: a translation both ways would cancel out.
  std::ofstream(path, std::ios::binary) << kAll;
  const int in = open_for_reading(path);
  REQUIRE(in >= 0);
  DescriptorSource source(in);
  CHECK(read_all(source) == kAll);
  char byte = 0;
  CHECK(source.read(&byte, 1) == 0);
  close_descriptor(in);
}

TEST_CASE("a pipe whose writer is gone ends the input, after what was written") {
  int fds[2];
  REQUIRE(make_pipe(fds));
  REQUIRE(DescriptorSink(fds[1]).write(kAll));
  REQUIRE(close_descriptor(fds[1]) == 0);
  DescriptorSource source(fds[0]);
  CHECK(read_all(source) == kAll);
  close_descriptor(fds[0]);
}

TEST_CASE("writing to a pipe nobody reads any more says it did not") {
#ifndef _WIN32
  // As plugin_main has it (survive_broken_pipes): EPIPE, not the signal.
  struct IgnoredSigpipe {
    void (*before)(int) = signal(SIGPIPE, SIG_IGN);
    ~IgnoredSigpipe() { signal(SIGPIPE, before); }
  } ignored;
#endif
  int fds[2];
  REQUIRE(make_pipe(fds));
  REQUIRE(close_descriptor(fds[0]) == 0);
  CHECK_FALSE(DescriptorSink(fds[1]).write(kAll));
  close_descriptor(fds[1]);
}

TEST_CASE("a descriptor that is not open: reading throws, writing says it did not") {
  constexpr int kNeverOpened = 4000;
  DescriptorSource source(kNeverOpened);
  char byte = 0;
  CHECK_THROWS_AS(source.read(&byte, 1), std::runtime_error);
  CHECK_FALSE(DescriptorSink(kNeverOpened).write("lost"));
}

#ifndef _WIN32
TEST_CASE("reading a directory throws with the system's words") {
  wincni::test::ScratchDir dir;
  const int fd = open(dir.path().c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  DescriptorSource source(fd);
  char byte = 0;
  CHECK_THROWS_WITH(source.read(&byte, 1), "Is a directory");
  close(fd);
}
#endif
