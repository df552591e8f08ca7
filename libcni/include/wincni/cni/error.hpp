#pragma once
// The CNI error: what every failure becomes before it reaches stdout.

#include "wincni/os/error.hpp"

namespace wincni::cni {

// Every code a wincni plugin prints, in one table (docs/error-codes.md):
// the CNI spec's well-known codes (below 100, and 999), then the ones the
// spec leaves to plugins (100 and up), which are ours.
enum ErrorCode : int {
  kIncompatibleVersion = 1,
  kUnsupportedField = 2,
  kUnknownContainer = 3,
  kInvalidEnvironment = 4,
  kIoFailure = os::kIoFailure,
  kDecodingFailure = 6,
  kInvalidNetworkConfig = 7,
  kTryAgainLater = os::kTryAgainLater,
  kPluginNotAvailable = 50,
  kPluginLimitedConnectivity = 51,
  kInternal = 999,

  // An HNS call failed in a way no spec code describes (hns_error.hpp).
  kHnsFailure = 100,
  // host-local: no free address in a range set, or the requested one is taken.
  kNoAddressAvailable = 110,
  // host-local: the container already holds an address of this range set on
  // this interface.
  kDuplicateAllocation = 111,
  // host-local CHECK: the attachment holds no address, or not the ones
  // prevResult lists.
  kAllocationMismatch = 112,
  // engine: the network the config names is not of a type the plugin works on.
  kWrongNetworkType = 120,
  // engine CHECK: what HNS holds differs from what the runtime was told
  // (prevResult).
  kEndpointMismatch = 121,
  // engine: an address IPAM or HNS handed out cannot be the pod's (a
  // gateway's, the node endpoint's, outside every subnet).
  kUnusableAddress = 122,
  // engine ADD: an endpoint the plugin did not create holds the pod's
  // endpoint name or its address; it is left alone.
  kEndpointInTheWay = 123,
};

// One type for every failure, whichever room throws it (wincni/os/error.hpp).
using Error = os::Error;

}  // namespace wincni::cni
