// hnsctl doctor on flannel nodes made dirty on purpose, one kind of leak at
// a time and all at once: what it reports, that --apply removes exactly
// what is wincni's, and what it never touches (flanneld's cbr0_ep, the
// source VIP's reservation, someone else's endpoint, a living pod's).

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "emulator_journal.hpp"
#include "file_text.hpp"
#include "flannel_node.hpp"
#include "foreign_endpoint.hpp"
#include "wincni/cni/plugin_path.hpp"

using namespace wincni::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Doctor {
  Run run;
  json report;

  // The findings of `kind`, by object.
  std::vector<json> of(const std::string& kind) const {
    std::vector<json> found;
    for (const json& finding : report["Findings"]) {
      if (finding["Kind"] == kind) found.push_back(finding);
    }
    return found;
  }
};

// The node's config folder holds its flannel config, as a node's does:
// doctor releases only the reservations of networks a wincni config names.
// A test that made the folder itself keeps what it put there.
void write_node_config(const FlannelNode& node) {
  if (fs::exists(node.path("net.d"))) return;
  fs::create_directories(node.path("net.d"));
  std::ofstream(fs::path(node.path("net.d")) / "10-flannel.conf") << node.config("cbr0").dump();
}

Doctor doctor(const FlannelNode& node, std::vector<std::string> extra = {},
              const std::map<std::string, std::string>& env = {}) {
  fs::create_directories(node.runtime_cache_dir());
  write_node_config(node);
  std::vector<std::string> args{"doctor",     "--json",          "--cache-dir",   node.runtime_cache_dir(),
                                "--data-dir", node.ipam_dir(),   "--flannel-dir", node.scratch_dir(),
                                "--conf-dir", node.path("net.d")};
  args.insert(args.end(), extra.begin(), extra.end());
  Doctor result{node.hnsctl(args, env), {}};
  result.report = result.run.json();
  INFO(result.run.report());
  REQUIRE(result.report.is_object());
  return result;
}

struct DirtyNode {
  FlannelNode node;
  json config;
  std::string live_netns;

  DirtyNode() {
    node.host_gw_node();
    config = node.config("cbr0");
    live_netns = node.create_namespace();
    node.add("live", live_netns, config.dump());
  }

  // host-local run by hand, as a script does, for a container that never
  // gets an endpoint.
  void reserve_by_hand(const std::string& owner) const {
    const json ipam = {{"cniVersion", "1.0.0"},
                       {"name", "cbr0"},
                       {"ipam", {{"type", "host-local"}, {"dataDir", node.ipam_dir()}, {"subnet", "10.244.4.0/24"}}}};
    Run held = node.host_local(ipam.dump(), {{"CNI_COMMAND", "ADD"},
                                             {"CNI_CONTAINERID", owner},
                                             {"CNI_NETNS", "none"},
                                             {"CNI_IFNAME", "eth0"},
                                             {"CNI_PATH", "."}});
    REQUIRE_MESSAGE(held.ok(), held.out << held.err);
  }

  // A pod whose ADD succeeded and that the runtime then forgot, its
  // namespace gone too (a crash, then a reboot).
  void add_forgotten(const std::string& pod) const {
    const std::string netns = node.create_namespace();
    node.add(pod, netns, config.dump());
    node.forget(pod, "cbr0");
    Run removed = node.hnsctl({"namespace", "delete", netns});
    REQUIRE_MESSAGE(removed.ok(), removed.out << removed.err);
  }
};

}  // namespace

TEST_CASE("doctor: a clean node with a living pod, flanneld's endpoint and the source VIP has nothing to report") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  Run vip = node.hnsctl({"source-vip", "cbr0", "--data-dir", node.ipam_dir()});
  REQUIRE_MESSAGE(vip.ok(), vip.out << vip.err);
  const Doctor clean = doctor(node, {"--grace", "0"});
  CHECK(clean.run.exit_code == 0);
  CHECK(clean.report["Findings"].empty());
  CHECK(clean.report["Pods"] == 1);
  CHECK(clean.report["Checked"]["Endpoints"] == 1);
  CHECK(clean.report["Checked"]["Allocations"] == 2);  // the pod's and the source VIP's
  CHECK(clean.report["Checked"]["ScratchFiles"] == 1);
}

TEST_CASE("doctor: a pod the runtime forgot leaves its endpoint, address and scratch file; --apply removes them") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  dirty.add_forgotten("gone");

  // Every survey reads one listing of HNS's networks, endpoints and
  // namespaces: a node with thousands of endpoints is listed once per run
  // (lookups by name, which the emulator's index answers, aside).
  const std::string journal = node.path("doctor.journal");
  const Doctor found = doctor(node, {"--grace", "0"}, {{"WINCNI_EMULATOR_JOURNAL", journal}});
  std::map<std::string, int> listings;
  for (const json& entry : journal_entries(journal)) {
    const std::string op = entry.at("op");
    if (op.starts_with("HcnEnumerate") && !entry["input"]["Query"].contains("Filter")) ++listings[op];
  }
  CHECK(listings == std::map<std::string, int>{{"HcnEnumerateEndpoints", 1},
                                               {"HcnEnumerateLoadBalancers", 1},
                                               {"HcnEnumerateNamespaces", 1},
                                               {"HcnEnumerateNetworks", 1}});
  CHECK(found.run.exit_code == 1);
  REQUIRE(found.of("endpoint").size() == 1);
  CHECK(found.of("endpoint")[0]["Object"] == "gone_cbr0 on cbr0");
  CHECK(found.of("endpoint")[0]["Outcome"] == "not removed");
  REQUIRE(found.of("allocation").size() == 1);
  CHECK(found.of("allocation")[0]["Problem"].get<std::string>().find("sandbox gone") != std::string::npos);
  REQUIRE(found.of("scratch file").size() == 1);
  CHECK(found.report["Findings"].size() == 3);
  CHECK(node.endpoint("gone_cbr0"));  // a report changes nothing

  const Doctor applied = doctor(node, {"--grace", "0", "--apply"});
  CHECK(applied.run.exit_code == 0);
  for (const json& finding : applied.report["Findings"]) CHECK(finding["Outcome"] == "removed");
  CHECK_FALSE(node.endpoint("gone_cbr0"));
  CHECK_FALSE(node.has_scratch("gone"));
  CHECK(node.held_addresses("cbr0").size() == 1);  // the living pod's
  CHECK(node.endpoint("live_cbr0"));
  CHECK(node.endpoint("cbr0_ep"));
  CHECK(node.audit() == "");
  // The living pod is whole: its DEL, then nothing is left.
  node.del("live", dirty.live_netns, dirty.config.dump());
  node.check_clean("cbr0");
}

TEST_CASE("doctor: an endpoint whose namespace is gone is removed even while the runtime still lists the pod") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  const std::string netns = node.create_namespace();
  node.add("rebooted", netns, dirty.config.dump());
  Run removed = node.hnsctl({"namespace", "delete", netns});
  REQUIRE_MESSAGE(removed.ok(), removed.out << removed.err);

  const Doctor found = doctor(node, {"--grace", "0"});
  const auto endpoints = found.of("endpoint");
  REQUIRE(endpoints.size() == 1);
  // HNS may keep the deleted namespace's ID on the endpoint or drop it
  // (WINCNI_EMULATOR_NAMESPACE_DELETE): either way it serves no pod.
  CHECK(endpoints[0]["Problem"].get<std::string>().find("namespace") != std::string::npos);
  CHECK(found.of("allocation").empty());  // the runtime's DEL releases it

  CHECK(doctor(node, {"--grace", "0", "--apply"}).run.exit_code == 0);
  CHECK_FALSE(node.endpoint("rebooted_cbr0"));
  // The runtime's DEL, which comes without a namespace, finds the rest.
  node.del("rebooted", "", dirty.config.dump());
  node.del("live", dirty.live_netns, dirty.config.dump());
  node.check_clean("cbr0");
}

TEST_CASE("doctor: an address or a scratch file without a pod is removed; someone else's endpoint never") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  dirty.reserve_by_hand("ghost");
  fs::create_directories(node.scratch_dir());
  std::ofstream(node.scratch_file("orphan")) << R"({"type":"win-bridge"})";
  // The reference plugin's endpoint: a pod's name, not our ID (with an
  // address of its own: one HNS picked could be the ghost's, which doctor
  // then keeps, as an address HNS shows in use).
  create_foreign_endpoint(node, "cbr0", "othersandbox_cbr0", "10.244.4.200");

  const Doctor found = doctor(node, {"--grace", "0", "--apply"});
  CHECK(found.run.exit_code == 0);
  CHECK(found.of("allocation").size() == 1);
  CHECK(found.of("scratch file").size() == 1);
  CHECK(found.of("endpoint").empty());
  CHECK(node.endpoint("othersandbox_cbr0"));
  CHECK(node.held_addresses("cbr0").size() == 1);
  CHECK_FALSE(node.has_scratch("orphan"));
}

TEST_CASE("doctor: files younger than the grace period belong to an ADD that may be running: left alone") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  // As if its ADD had not returned yet: in the runtime's cache only once it has.
  node.add("adding", node.create_namespace(), dirty.config.dump());
  node.forget("adding", "cbr0");
  const Doctor found = doctor(node, {"--apply"});
  CHECK(found.run.exit_code == 0);
  CHECK(found.report["Findings"].empty());
  CHECK(found.report["InFlight"] == json::array({"adding"}));
  CHECK(node.endpoint("adding_cbr0"));
}

TEST_CASE("doctor: with an unreadable cache entry nothing is removed; without the cache folder it refuses") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  dirty.add_forgotten("gone");
  std::ofstream(fs::path(node.runtime_cache_dir()) / "cbr0-torn-eth0") << "{\"kind\":";

  const Doctor held = doctor(node, {"--grace", "0", "--apply"});
  CHECK(held.run.exit_code == 1);
  CHECK(held.of("runtime cache").size() == 1);
  for (const json& finding : held.of("endpoint")) CHECK(finding["Outcome"] == "not removed");
  CHECK(node.endpoint("gone_cbr0"));

  Run refused = node.hnsctl({"doctor", "--cache-dir", node.path("no-cache")});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("does not exist") != std::string::npos);
}

TEST_CASE("doctor: a config whose network is missing or of another type is reported, never changed") {
  FlannelNode node;
  node.host_gw_node();
  fs::create_directories(node.path("net.d"));
  // win-overlay on flanneld's L2Bridge network.
  std::ofstream(node.path("net.d") + "/10-overlay.conf")
      << json{{"cniVersion", "1.0.0"}, {"name", "cbr0"}, {"type", "win-overlay"}}.dump();
  // flannel before flanneld wrote subnet.env.
  std::ofstream(node.path("net.d") + "/20-flannel.conflist")
      << json{{"cniVersion", "1.0.0"},
              {"name", "cbr0"},
              {"plugins", json::array({node.config("cbr0", {{"subnetFile", node.path("missing.env")}})})}}
             .dump();
  std::ofstream(node.path("net.d") + "/30-other.conf") << R"({"cniVersion":"1.0.0","name":"x","type":"bridge"})";

  const Doctor found = doctor(node, {"--grace", "0", "--apply"});
  CHECK(found.run.exit_code == 1);
  CHECK(found.report["Checked"]["Configs"] == 2);
  const auto networks = found.of("network");
  REQUIRE(networks.size() == 2);
  CHECK(networks[0]["Object"].get<std::string>().find("10-overlay.conf") != std::string::npos);
  CHECK(networks[1]["Problem"].get<std::string>().find("missing.env") != std::string::npos);
  for (const json& finding : networks) CHECK(finding["Outcome"] == "report only");
  CHECK(node.networks().size() == 1);
}

// security review, finding 3: a cache folder that lists nobody (a wrong
// --cache-dir, an emptied cache) must not read as "every pod is gone".
TEST_CASE("doctor: a cache that lists no pod never removes a pod whose namespace exists; --apply is held") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  const std::string empty_cache = node.path("wrong-cache");
  fs::create_directories(empty_cache);
  write_node_config(node);
  Run applied =
      node.hnsctl({"doctor", "--json", "--cache-dir", empty_cache, "--data-dir", node.ipam_dir(), "--flannel-dir",
                   node.scratch_dir(), "--conf-dir", node.path("net.d"), "--grace", "0", "--apply"});
  CHECK(applied.exit_code == 1);
  CHECK(applied.err.find("lists no pod") != std::string::npos);
  const json report = applied.json();
  REQUIRE(report["Findings"].size() == 1);
  CHECK(report["Findings"][0]["Kind"] == "endpoint");
  CHECK(report["Findings"][0]["Ours"] == false);
  CHECK(report["Findings"][0]["Problem"].get<std::string>().find("still exists: left alone") != std::string::npos);
  CHECK(node.endpoint("live_cbr0"));
  CHECK(node.has_scratch("live"));
  CHECK(node.held_addresses("cbr0").size() == 1);
  node.del("live", dirty.live_netns, dirty.config.dump());
  node.check_clean("cbr0");
}

TEST_CASE("doctor: a pod the runtime forgot whose namespace exists is reported, never removed") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  const std::string netns = node.create_namespace();
  node.add("forgotten", netns, dirty.config.dump());
  node.forget("forgotten", "cbr0");
  const Doctor applied = doctor(node, {"--grace", "0", "--apply"});
  CHECK(applied.run.exit_code == 1);
  REQUIRE(applied.of("endpoint").size() == 1);
  CHECK(applied.of("endpoint")[0]["Outcome"] == "report only");
  CHECK(applied.of("allocation").empty());
  CHECK(applied.of("scratch file").empty());
  CHECK(node.endpoint("forgotten_cbr0"));
  CHECK(node.has_scratch("forgotten"));
}

// security review, finding 5: --flannel-dir pointed at a folder that is not
// flannel's.
TEST_CASE("doctor: files in the flannel folder that are not saved delegate configs are reported, never removed") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  std::ofstream(node.scratch_file("notes.txt")) << "an operator's notes";
  const Doctor applied = doctor(node, {"--grace", "0", "--apply"});
  REQUIRE(applied.of("scratch file").size() == 1);
  CHECK(applied.of("scratch file")[0]["Ours"] == false);
  CHECK(fs::exists(node.scratch_file("notes.txt")));
  CHECK(node.has_scratch("live"));
}

// security review, finding 6: doctor released reservations of networks no
// wincni config names (another runtime's in the same dataDir).
TEST_CASE("doctor: reservations of a network no wincni config names are reported, never released") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  const fs::path other = fs::path(node.ipam_dir()) / "nat";
  fs::create_directories(other);
  std::ofstream(other / "172.20.0.5", std::ios::binary) << "other-runtime-ctr\r\neth0";
  const Doctor applied = doctor(node, {"--grace", "0", "--apply"});
  REQUIRE(applied.of("allocation").size() == 1);
  CHECK(applied.of("allocation")[0]["Ours"] == false);
  CHECK(applied.of("allocation")[0]["Problem"].get<std::string>().find("no wincni config names network nat") !=
        std::string::npos);
  CHECK(fs::exists(other / "172.20.0.5"));
  CHECK(node.held_addresses("cbr0").size() == 1);  // the living pod's, untouched
}

// security review, finding 6: a source VIP a script reserved under an owner
// of its own was released as a pod's leftover, and the next pod got
// kube-proxy's address.
TEST_CASE("doctor: a reservation whose address an endpoint in HNS holds is never released, whoever it names") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  for (const std::string owner : {"svip-script", "ghost"}) dirty.reserve_by_hand(owner);
  // The script's address (10.244.4.4, after the living pod's .3) is kube-proxy's
  // source VIP endpoint's; the ghost's (.5) nobody's.
  REQUIRE(node.held_addresses("cbr0").size() == 3);
  create_foreign_endpoint(node, "cbr0", "sourceVip", "10.244.4.4");
  const Doctor applied = doctor(node, {"--grace", "0", "--apply"});
  REQUIRE(applied.of("allocation").size() == 1);
  CHECK(applied.of("allocation")[0]["Problem"].get<std::string>().find("ghost") != std::string::npos);
  const auto left = node.held_addresses("cbr0");
  CHECK(left.size() == 2);
  CHECK(std::find(left.begin(), left.end(), "10.244.4.4") != left.end());
  CHECK(node.endpoint("sourceVip"));
  // Left alone, but said: the store names a pod that is gone for an address
  // HNS shows in use.
  REQUIRE(applied.report["HeldByOthers"].size() == 1);
  const std::string held = applied.report["HeldByOthers"][0];
  CHECK_MESSAGE(held.find("10.244.4.4") != std::string::npos, held);
  CHECK_MESSAGE(held.find("svip-script") != std::string::npos, held);
  CHECK_MESSAGE(held.find("sourceVip") != std::string::npos, held);
  // What --apply released is on record with the plugins' own repairs.
  const json repairs = applied.report["Repairs"];
  REQUIRE(repairs.size() == 1);
  const std::string repair = repairs[0];
  CHECK_MESSAGE(repair.find("hnsctl[") != std::string::npos, repair);
  CHECK_MESSAGE(repair.find("removed allocation") != std::string::npos, repair);
  CHECK_MESSAGE(repair.find("ghost") != std::string::npos, repair);
}

TEST_CASE("doctor: a config folder that does not exist is an error, never \"no configs\"") {
  FlannelNode node;
  node.host_gw_node();
  fs::create_directories(node.runtime_cache_dir());
  Run refused = node.hnsctl({"doctor", "--cache-dir", node.runtime_cache_dir(), "--conf-dir", node.path("no-such")});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("the CNI config folder") != std::string::npos);
  CHECK(refused.err.find("does not exist") != std::string::npos);
}

// The opposite leak: HNS lost a running pod's endpoint (an HNS restart or
// crash); only the runtime's cache remembers the pod.
TEST_CASE("doctor: a pod the runtime still has whose endpoint HNS lost is reported") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  const auto endpoint = node.endpoint("live_cbr0");
  REQUIRE(endpoint);
  Run removed = node.hnsctl({"endpoint", "delete", (*endpoint)["ID"].get<std::string>()});
  REQUIRE_MESSAGE(removed.ok(), removed.out << removed.err);
  // Another plugin's pod on a network no wincni config names: its endpoint
  // may be named otherwise, so its absence says nothing.
  node.host_gw("10.250.0.0/24", "othernet");
  std::ofstream(fs::path(node.runtime_cache_dir()) / "othernet-otherpod-eth0") << json{
      {"kind", "cniCacheV1"},
      {"containerId", "otherpod"},
      {"networkName", "othernet"},
      {"ifName", "eth0"}}.dump();
  const Doctor found = doctor(node, {"--grace", "0", "--apply"});
  CHECK(found.run.exit_code == 1);
  REQUIRE(found.of("pod without endpoint").size() == 1);
  CHECK(found.of("pod without endpoint")[0]["Problem"].get<std::string>().find("HNS has no endpoint live_cbr0") !=
        std::string::npos);
  CHECK(found.of("pod without endpoint")[0]["Outcome"] == "report only");
  CHECK(node.has_scratch("live"));  // the runtime's DEL still needs it
  node.del("live", dirty.live_netns, dirty.config.dump());
  node.check_clean("cbr0");
}

// operator review: nothing told an operator that containerd reads its CNI
// configs or plugins from other folders than wincni's; the pods kept the old
// plugin, or failed with "failed to find plugin".
TEST_CASE("doctor: a containerd config.toml that loads other configs or misses a plugin is reported, never changed") {
  DirtyNode dirty;
  FlannelNode& node = dirty.node;
  const fs::path bin = node.path("containerd-bin");
  fs::create_directories(bin);
  const std::string config_file = node.path("config.toml");
  const auto write_config = [&](const std::string& conf_dir) {
    std::ofstream(config_file, std::ios::binary)
        << "version = 3\n[plugins.'io.containerd.cri.v1.runtime'.cni]\n  bin_dirs = ['" << bin.string()
        << "']\n  conf_dir = '" << conf_dir << "'\n";
  };
  write_config(node.path("elsewhere"));
  const std::string before = file_text(config_file);
  const Doctor found = doctor(node, {"--grace", "0", "--apply", "--containerd-config", config_file});
  CHECK(found.run.exit_code == 1);
  const auto problems = found.of("containerd");
  REQUIRE(problems.size() == 3);  // the folder, flannel and its delegate's IPAM (host-local by default)
  CHECK(problems[0]["Problem"].get<std::string>().starts_with(
      "containerd reads CNI configs from " + node.path("elsewhere") +
      " (plugins.'io.containerd.cri.v1.runtime'.cni.conf_dir), not from " + node.path("net.d")));
  CHECK(problems[1]["Problem"].get<std::string>().starts_with(
      "the configs name plugin \"flannel\", which is in none of containerd's CNI bin folders"));
  CHECK(problems[2]["Problem"].get<std::string>().starts_with("the configs name plugin \"host-local\""));
  for (const json& problem : problems) CHECK(problem["Outcome"] == "report only");
  CHECK(file_text(config_file) == before);

  // The folder right, and another project's flannel first in it: pods run that one.
  const fs::path plugin = bin / ("flannel" + std::string(wincni::cni::kExecutableSuffix));
  std::ofstream(plugin) << "the reference flannel";
  std::ofstream(bin / ("host-local" + std::string(wincni::cni::kExecutableSuffix)))
      << "host-local (wincni 0.1.0, commit 0123456789ab)";
  write_config(node.path("net.d"));
  const Doctor foreign = doctor(node, {"--grace", "0", "--containerd-config", config_file});
  CHECK(foreign.run.exit_code == 1);
  REQUIRE(foreign.of("containerd").size() == 1);
  CHECK(foreign.of("containerd")[0]["Problem"].get<std::string>().find("which is not wincni's: pods run that one") !=
        std::string::npos);

  // wincni's flannel in place: nothing to say.
  std::ofstream(plugin, std::ios::trunc) << "flannel (wincni 0.1.0, commit 0123456789ab)";
  const Doctor clean = doctor(node, {"--grace", "0", "--containerd-config", config_file});
  CHECK(clean.run.exit_code == 0);
  CHECK(clean.of("containerd").empty());

  // Named and not there: a note. Not containerd's TOML: a problem.
  const Doctor absent = doctor(node, {"--grace", "0", "--containerd-config", node.path("absent.toml")});
  CHECK(absent.run.exit_code == 0);
  REQUIRE(absent.of("containerd").size() == 1);
  CHECK(absent.of("containerd")[0]["Outcome"] == "note");
  std::ofstream(config_file, std::ios::binary) << "version = 3\nroot = 'unterminated\n";
  const Doctor broken = doctor(node, {"--grace", "0", "--containerd-config", config_file});
  CHECK(broken.run.exit_code == 1);
  REQUIRE(broken.of("containerd").size() == 1);
  CHECK(broken.of("containerd")[0]["Problem"] == "not readable as containerd's config: line 2: an unterminated string");
}
