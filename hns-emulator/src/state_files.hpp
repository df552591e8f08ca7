#pragma once
// The emulator's state as files. Every file and lock goes through the
// suite's OS layer (os/: private_files.hpp, file_lock.hpp, append_file.hpp);
// this adds only what the emulator means by its paths and the shapes its store uses.
//
// A path that starts with '/' names a Unix folder. On Windows (the emulator
// DLLs under Wine) it is reached through Wine's Z: drive ("/tmp/x" is
// "Z:\tmp\x"), so that WINCNI_EMULATOR_DIR names one folder for native and
// Wine processes; other paths are used as they are.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wincni/os/file_lock.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::hns::emulator {

using os::private_files::Durability;

// The state lock: shared for readers, exclusive for writers. A record lock,
// which native processes and Wine's LockFileEx both see (file_lock.hpp).
class StateLock {
 public:
  enum class Mode { kShared, kExclusive };
  StateLock(const std::string& path, Mode mode);

 private:
  os::FileLock lock_;
};

// nullopt when the file does not exist.
std::optional<std::string> read_file(const std::string& path);
// Readers see the old content or the new, never a mix, even if the process
// dies half-way: `<path>.tmp` written, then renamed over (kFlushed: on the
// disk first). The caller holds the state lock, which keeps other writers
// out. kCached is for files a durable commit record can write again.
void write_file_atomic(const std::string& path, std::string_view content, Durability durability = Durability::kFlushed);
// An empty file; one that exists already stays as it is.
void create_empty_file(const std::string& path);
// Nothing happens when the file is already gone.
void remove_file(const std::string& path);
// Nothing happens when the folder is gone or holds anything.
void remove_directory_if_empty(const std::string& path);
// The names in a folder; none when it does not exist.
std::vector<std::string> list_directory(const std::string& path);
// One whole line at the end, never interleaved with another writer's.
void append_line(const std::string& path, std::string_view line);
void make_directories(const std::string& path);

}  // namespace wincni::hns::emulator
