#pragma once
// What pods that are gone left on a node: the endpoints the engine created
// (own_endpoints.hpp), host-local's reservations and flannel's scratch files
// of sandboxes whose pods the runtime no longer has, and endpoints of ours
// attached to nothing or to a namespace that no longer exists. `hnsctl doctor` surveys a node with
// the runtime's cache as the living pods; the tests' invariant checker is
// that same command (docs/hnsctl.md, "doctor").

#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "doctor/leftover.hpp"
#include "hns_listing.hpp"
#include "wincni/hns/client.hpp"

namespace wincni::hnsctl::doctor {

struct NodeFolders {
  std::string ipam_data_dir;     // host-local's dataDir: one folder per network
  std::string flannel_data_dir;  // flannel's dataDir: one file per sandbox
  // The networks wincni's configs name: only their reservations are
  // released; another network's (another runtime's, another plugin's) are
  // reported.
  std::set<std::string> our_networks;
};

struct SurveyCounts {
  std::size_t endpoints = 0;    // ours, on every network
  std::size_t allocations = 0;  // host-local reservations, every network
  std::size_t scratch_files = 0;
};

struct Survey {
  std::vector<Leftover> leftovers;
  SurveyCounts checked;
  // Sandboxes the runtime does not have, left alone because a file of
  // theirs is younger than the grace period: their ADD may still be running.
  std::set<std::string> in_flight;
  // Sandboxes an endpoint of ours serves in a namespace (on v1, a running
  // container) HNS still has: nothing of theirs is removed on the runtime
  // cache's word alone.
  std::set<std::string> occupied;
  // Reservations of sandboxes the runtime does not have whose addresses an
  // endpoint that is not ours holds in HNS (a source VIP a script reserved
  // under its own name, another plugin's pod): never released, shown so
  // that the store's stale name for a used address is on record.
  std::vector<std::string> held_by_others;
};

// Whether the file at `path` was written less than `grace` ago (never, for
// a grace of 0).
bool younger_than(const std::string& path, std::chrono::seconds grace);

// `live`: the sandboxes (CNI container IDs) whose pods the runtime still
// has. Files younger than `grace` are taken for an ADD in progress: neither
// they nor their sandbox's endpoints are leftovers. `hns` is what HNS
// holds; `client` asks what the listing does not say (v1 attachments, a
// container's state) and removes.
Survey survey_node(const std::shared_ptr<hns::HnsClient>& client, const HnsListing& hns, const NodeFolders& folders,
                   const std::set<std::string>& live, std::chrono::seconds grace);

}  // namespace wincni::hnsctl::doctor
