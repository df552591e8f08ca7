#include "doctor/node_survey.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"
#include "wincni/os/file_times.hpp"
#include "wincni/os/private_files.hpp"
#include "wincni/engine/attachment_liveness.hpp"
#include "wincni/engine/own_endpoints.hpp"
#include "wincni/flannel/scratch_store.hpp"
#include "wincni/hostlocal/owner.hpp"
#include "wincni/hostlocal/standing_reservation.hpp"
#include "wincni/hostlocal/store.hpp"

namespace wincni::hnsctl::doctor {

namespace {

namespace files = os::private_files;

// Releases the reservation of `ip` if, under the store's lock, its file
// still says what the survey read: a pod's ADD may have taken the address
// in between.
std::function<bool()> release_if_unchanged(const hostlocal::Store& store, const hostlocal::Reservation& seen) {
  return [store = store, seen]() mutable {
    const auto session = store.lock();
    const hostlocal::Snapshot now = store.scan();
    const auto found = now.reservations.find(seen.ip);
    if (found == now.reservations.end() || found->second.content != seen.content) return false;
    store.release(found->second);
    return true;
  };
}

// The endpoints other than ours that hold an address on a network, by the
// network's name and the address: kube-proxy's source VIP endpoint (under
// whatever owner a script reserved it), flanneld's, another plugin's pods.
// Whether one of ours still serves a pod is decided from its attachment.
using ForeignHolders = std::map<std::pair<std::string, cni::IpAddress>, std::string>;

ForeignHolders foreign_holders(const HnsListing& hns, const std::vector<engine::OwnEndpoint>& own) {
  std::set<hns::Guid> ours;
  for (const engine::OwnEndpoint& endpoint : own) ours.insert(endpoint.id);
  std::map<hns::Guid, std::string> network_names;
  for (const hns::HostComputeNetwork& network : hns.networks) network_names[network.id] = network.name;
  ForeignHolders holders;
  for (const hns::HostComputeEndpoint& endpoint : hns.endpoints) {
    if (ours.contains(endpoint.id)) continue;
    const auto network = network_names.find(endpoint.host_compute_network);
    if (network == network_names.end()) continue;
    for (const hns::IpConfig& config : endpoint.ip_configurations) {
      holders.emplace(std::make_pair(network->second, config.ip_address), endpoint.name);
    }
  }
  return holders;
}

void survey_allocations(const NodeFolders& folders, const std::set<std::string>& live, std::chrono::seconds grace,
                        const ForeignHolders& held_in_hns, Survey& survey) {
  if (folders.ipam_data_dir.empty() || !files::is_directory(folders.ipam_data_dir)) return;
  for (const files::DirEntry& network : files::list_directory(folders.ipam_data_dir)) {
    std::optional<hostlocal::Store> store;
    try {
      store = hostlocal::Store::open_existing(folders.ipam_data_dir, network.name);
    } catch (const cni::Error&) {
      continue;  // not a network's folder
    }
    if (!store) continue;
    const hostlocal::Snapshot snapshot = store->scan();
    for (const auto& [ip, reservation] : snapshot.reservations) {
      if (!reservation.content) continue;
      ++survey.checked.allocations;
      const std::string path = files::join(store->directory(), reservation.file_name);
      const std::string owner(hostlocal::owner_container_id(*reservation.content));
      if (younger_than(path, grace)) {
        if (!live.contains(owner)) survey.in_flight.insert(owner);
        continue;
      }
      // An address HNS shows in use is no leftover, whoever the file names.
      const bool named_pod_gone =
          !hostlocal::is_standing_owner(owner) && !live.contains(owner) && !survey.occupied.contains(owner);
      if (const auto holder = held_in_hns.find({network.name, ip}); holder != held_in_hns.end()) {
        if (named_pod_gone && !hostlocal::is_orphan(*reservation.content)) {
          survey.held_by_others.push_back(fmt::format(
              "{} on network {}: the store names {}, which the runtime no longer has; HNS shows "
              "endpoint {} (not wincni's) holding it: left alone",
              ip.str(), network.name, hostlocal::is_orphan(*reservation.content) ? "nobody" : owner, holder->second));
        }
        continue;
      }
      std::string problem;
      if (hostlocal::is_orphan(*reservation.content)) {
        problem = "an empty reservation file: its writer died before naming the pod";
      } else if (!named_pod_gone) {
        continue;
      } else {
        problem = fmt::format("{} on network {} held for sandbox {}, which the runtime no longer has", ip.str(),
                              network.name, owner);
      }
      // Another network's (another runtime's or plugin's) is only reported.
      const bool ours = folders.our_networks.contains(network.name);
      if (!ours) problem += fmt::format(" (no wincni config names network {}: left alone)", network.name);
      survey.leftovers.push_back({"allocation",
                                  path,
                                  problem,
                                  {},
                                  ours ? release_if_unchanged(*store, reservation) : std::function<bool()>{}});
    }
    for (const std::string& stale : snapshot.stale_files) {
      const std::string path = files::join(store->directory(), stale);
      if (younger_than(path, grace)) continue;
      survey.leftovers.push_back(
          {"allocation", path, "a staging file a killed writer left", {}, [store = *store, stale]() mutable {
             const auto session = store.lock();
             store.remove_stale(stale);
             return true;
           }});
    }
  }
}

void survey_scratch_files(const NodeFolders& folders, const std::set<std::string>& live, std::chrono::seconds grace,
                          Survey& survey) {
  if (folders.flannel_data_dir.empty()) return;
  const flannel::ScratchStore store(folders.flannel_data_dir);
  const flannel::ScratchListing listing = store.list();
  for (const std::string& name : listing.others) {
    survey.leftovers.push_back({"scratch file",
                                store.path(name),
                                "not a delegate config flannel saved: left alone (is --flannel-dir flannel's dataDir?)",
                                {},
                                {}});
  }
  for (const std::string& sandbox : listing.records) {
    ++survey.checked.scratch_files;
    const std::string path = store.path(sandbox);
    if (live.contains(sandbox) || survey.occupied.contains(sandbox)) continue;
    if (younger_than(path, grace)) {
      survey.in_flight.insert(sandbox);
    } else {
      const std::string problem =
          fmt::format("flannel's record of sandbox {}, which the runtime no longer has", sandbox);
      survey.leftovers.push_back(
          {"scratch file", path, problem, {}, [store, sandbox] { return store.remove(sandbox); }});
    }
  }
}

std::set<hns::Guid> namespace_ids(const HnsListing& hns) {
  std::set<hns::Guid> namespaces;
  for (const auto& ns : hns.namespaces) namespaces.insert(ns.id);
  return namespaces;
}

void survey_endpoints(const std::shared_ptr<hns::HnsClient>& client, const std::vector<engine::OwnEndpoint>& own,
                      const std::set<hns::Guid>& namespaces, const std::set<std::string>& live, Survey& survey) {
  std::vector<Leftover> found;
  for (const engine::OwnEndpoint& endpoint : own) {
    ++survey.checked.endpoints;
    if (survey.in_flight.contains(endpoint.sandbox)) continue;
    std::string problem;
    std::function<bool()> repair = [client, endpoint] { return engine::remove_own_endpoint(client, endpoint); };
    if (!endpoint.ns.is_null() && !namespaces.contains(endpoint.ns)) {
      problem = fmt::format("attached to namespace {}, which no longer exists", endpoint.ns.str());
    } else if (endpoint.ns.is_null() && endpoint.containers.empty()) {
      // An ADD that died before attaching it, a DEL that died before
      // deleting it, or a namespace deleted under it: it serves no pod.
      problem = "attached to no namespace or container";
    } else if (!live.contains(endpoint.sandbox)) {
      if (survey.occupied.contains(endpoint.sandbox)) {
        // The runtime's cache alone (a wrong --cache-dir, an emptied cache)
        // never outweighs what HNS shows alive.
        problem = fmt::format(
            "its sandbox {} is not among the runtime's pods, but what it is attached to still "
            "exists: left alone (once the pod is gone, delete its namespace and run doctor again)",
            endpoint.sandbox);
        repair = {};
      } else {
        problem = fmt::format("its sandbox {} is not among the runtime's pods", endpoint.sandbox);
      }
    } else {
      continue;
    }
    found.push_back({"endpoint", fmt::format("{} on {}", endpoint.name, endpoint.network), problem, endpoint.id.str(),
                     std::move(repair)});
  }
  // Endpoints first: their addresses are released only once they are gone.
  survey.leftovers.insert(survey.leftovers.begin(), found.begin(), found.end());
}

}  // namespace

bool younger_than(const std::string& path, std::chrono::seconds grace) {
  if (grace.count() == 0) return false;
  const std::optional<std::int64_t> written = os::file_times::last_write_time_ns(path);
  if (!written) return false;
  // In seconds: a time in nanoseconds far from now (a clock set wrong, a
  // file from 1601 on Windows) could overflow the difference.
  const std::int64_t written_s = *written / 1'000'000'000;
  const std::int64_t now_s =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  return now_s - written_s < grace.count();
}

Survey survey_node(const std::shared_ptr<hns::HnsClient>& client, const HnsListing& hns, const NodeFolders& folders,
                   const std::set<std::string>& live, std::chrono::seconds grace) {
  Survey survey;
  const std::vector<engine::OwnEndpoint> own = engine::own_endpoints(client, hns.networks, hns.endpoints);
  const std::set<hns::Guid> namespaces = namespace_ids(hns);
  const auto namespace_exists = [&namespaces](const hns::Guid& id) { return namespaces.contains(id); };
  for (const engine::OwnEndpoint& endpoint : own) {
    if (engine::serves_live_sandbox(*client, endpoint.ns, endpoint.containers, namespace_exists)) {
      survey.occupied.insert(endpoint.sandbox);
    }
  }
  survey_allocations(folders, live, grace, foreign_holders(hns, own), survey);
  survey_scratch_files(folders, live, grace, survey);
  survey_endpoints(client, own, namespaces, live, survey);
  return survey;
}

}  // namespace wincni::hnsctl::doctor
