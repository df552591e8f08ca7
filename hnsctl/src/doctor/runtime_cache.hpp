#pragma once
// The pods a container runtime still has, read from libcni's result cache:
// one file per attachment the runtime added and has not yet deleted,
// <folder>/<network>-<container ID>-<ifname>, JSON whose "kind" is
// "cniCacheV1" with "containerId", "networkName" and "ifName" (libcni's
// cachedInfo, containernetworking/cni libcni/api.go). containerd writes it
// through go-cni under /var/lib/cni, which is C:\var\lib\cni\results on a
// Windows node. A failed ADD leaves no file; a successful DEL removes it.

#include <set>
#include <string>
#include <vector>

namespace wincni::hnsctl::doctor {

// One cached attachment: a pod the runtime set up on a network.
struct CachedAttachment {
  std::string container;
  std::string network;  // the config's name ("networkName")
  std::string path;     // the cache file
};

struct RuntimeCache {
  std::string folder;                // the results folder read
  std::set<std::string> containers;  // container IDs with at least one cached attachment
  std::vector<CachedAttachment> attachments;
  std::vector<std::string> unreadable;  // files that are no cache entry we can read
};

// `folder` is the results folder or the cache folder above it. Throws
// std::runtime_error when neither exists: a missing folder says nothing of
// which pods are alive, so it must not read as "none".
RuntimeCache read_runtime_cache(const std::string& folder);

}  // namespace wincni::hnsctl::doctor
