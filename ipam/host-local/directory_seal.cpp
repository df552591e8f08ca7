#include "directory_seal.hpp"

#include <cstdint>

#include "wincni/os/file_times.hpp"

namespace wincni::hostlocal::directory_seal {

namespace {

// 2000-01-01T00:00:00Z: whole seconds, which every file system that keeps
// seconds keeps exactly, and long before any node ran host-local.
constexpr std::int64_t kSealNs = 946'684'800LL * 1'000'000'000LL;

}  // namespace

bool is_sealed(const std::string& dir) { return os::file_times::last_write_time_ns(dir) == kSealNs; }

bool seal(const std::string& dir) { return os::file_times::set_last_write_time_ns(dir, kSealNs); }

}  // namespace wincni::hostlocal::directory_seal
