// wincni-hold-lock PATH exclusive|shared MILLISECONDS
// Prints "waiting", takes the emulator's state lock (state_files.hpp's
// StateLock: os/'s FileLock, record family) on PATH, prints "locked" once
// it holds it, keeps it for MILLISECONDS, then exits.
// lock_interop.py runs it under Wine beside native fcntl locks and beside
// the same program built natively.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>

#include "state_files.hpp"

int main(int argc, char** argv) {
  using wincni::hns::emulator::StateLock;
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
    StateLock lock(argv[1], mode == "exclusive" ? StateLock::Mode::kExclusive : StateLock::Mode::kShared);
    std::printf("locked\n");
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::milliseconds(std::strtoull(argv[3], nullptr, 10)));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "wincni-hold-lock: %s\n", error.what());
    return 1;
  }
  return 0;
}
