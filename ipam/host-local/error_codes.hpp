#pragma once
// host-local's own error codes (the CNI spec leaves 100 and up to plugins;
// the reference reports all of these as 999).

namespace wincni::hostlocal {

// No free address in a range set, or the requested one is taken.
inline constexpr int kNoAddressAvailable = 110;
// The container already holds an address of this range set on this interface.
inline constexpr int kDuplicateAllocation = 111;
// CHECK: the attachment holds no address, or not the ones prevResult lists.
inline constexpr int kAllocationMismatch = 112;

}  // namespace wincni::hostlocal
