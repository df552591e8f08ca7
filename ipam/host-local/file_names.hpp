#pragma once
// The names inside <dataDir>/<network>, identical to the reference's:
// one file per reserved address named after it, "last_reserved_ip.<set>",
// and "lock". On Windows ':' cannot appear in a file name, so IPv6 names have
// it replaced by '_' (platform_escapes_colons() says whether it applies).

#include <optional>
#include <string>
#include <string_view>

#include "wincni/cni/ip.hpp"

namespace wincni::hostlocal {

inline constexpr std::string_view kLockFileName = "lock";
// Where a reservation is written before it is published under its address's
// name; never an address, so the reference ignores it when it allocates.
inline constexpr std::string_view kStagingFileName = ".wincni-reserving";
// Where the writable-directory probe of STATUS writes.
inline constexpr std::string_view kProbeFileName = ".wincni-status-probe";

// Whether this platform's names escape ':' (Windows file names cannot hold
// it; the reference writes '_' there). file_names_posix.cpp and
// file_names_win32.cpp answer.
bool platform_escapes_colons();

std::string ip_file_name(const cni::IpAddress& ip, bool escape_colons);
// The address a file name stands for; nullopt for every other name, and for
// names that are not the canonical spelling (those never block an address:
// the reference creates the canonical name and would succeed).
std::optional<cni::IpAddress> ip_from_file_name(std::string_view name, bool escape_colons);

std::string last_reserved_file_name(std::string_view range_id);

// The network name becomes a directory under dataDir: refuse anything that
// would leave it or name a device (code 7).
void check_network_name(std::string_view name);

}  // namespace wincni::hostlocal
