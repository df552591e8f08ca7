// wincni-hold-lock PATH exclusive|shared MILLISECONDS
// Prints "waiting", takes the emulator's state lock (platform_win32.cpp's
// FileLock) on PATH, prints "locked" once it holds it, keeps it for
// MILLISECONDS, then exits.
// lock_interop.py runs it under Wine against native fcntl locks.

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "platform.hpp"

int main(int argc, char** argv) {
  using wincni::hns::emulator::FileLock;
  if (argc != 4) {
    std::fprintf(stderr, "usage: wincni-hold-lock PATH exclusive|shared MILLISECONDS\n");
    return 2;
  }
  std::string mode = argv[2];
  if (mode != "exclusive" && mode != "shared") {
    std::fprintf(stderr, "wincni-hold-lock: mode must be exclusive or shared, not %s\n", argv[2]);
    return 2;
  }
  std::printf("waiting\n");
  std::fflush(stdout);
  try {
    FileLock lock(argv[1], mode == "exclusive" ? FileLock::Mode::Exclusive : FileLock::Mode::Shared);
    std::printf("locked\n");
    std::fflush(stdout);
    wincni::hns::emulator::sleep_milliseconds(std::strtoull(argv[3], nullptr, 10));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "wincni-hold-lock: %s\n", error.what());
    return 1;
  }
  return 0;
}
