#pragma once
// The safety invariant of every deleting action, as a model-based test:
// random sequences of ADD, DEL, CHECK, GC, STATUS, hnsctl doctor --apply,
// hnsctl source-vip, wipes and moves of IPAM's store and wipes of the
// runtime's cache, doctor pointed at folders that are not the plugins', HNS
// restarts that lose every pod's endpoint (projectcalico/calico#5164: the
// pods keep running without a network), over a few pods of one plugin.
// After every step:
//   - every live pod (its ADD succeeded, no DEL of its own since) still has
//     its endpoint, attached to its namespace, unless an HNS restart lost
//     it: nothing else deleted it;
//   - no address is held twice (HNS's endpoints);
//   - nothing outside the node's data folders changed.
// The sequences come from a fixed seed (WINCNI_INVARIANT_SEED changes it).
// The engine's flavors run it in process (tests/engine), flannel through its
// binaries (tests/e2e/flannel).

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "emulated_node.hpp"
#include "file_text.hpp"
#include "foreign_endpoint.hpp"

namespace wincni::test {

inline std::uint32_t invariant_seed() {
  const char* text = std::getenv("WINCNI_INVARIANT_SEED");
  return text != nullptr ? static_cast<std::uint32_t>(std::strtoul(text, nullptr, 10)) : 20261128U;
}

// One random sequence on `node`, a node of the plugin under test whose pods
// join `network`; `config` gives the plugin's config at a CNI version.
template <class Node>
class InvariantSequence {
 public:
  static constexpr int kPods = 4;
  static constexpr int kSteps = 30;
  using Config = std::function<nlohmann::json(const Node&, const std::string& version)>;

  InvariantSequence(Node& node, std::mt19937& random, int number, std::string network, Config config)
      : node_(node),
        random_(random),
        number_(number),
        network_(std::move(network)),
        config_(std::move(config)),
        outside_(node.path("outside")) {
    std::filesystem::create_directories(outside_);
    for (const auto& [name, text] : kOutsideFiles) std::ofstream(outside_ / name, std::ios::binary) << text;
  }

  // The steps it ran.
  int run() {
    int total_weight = 0;
    for (const Choice& choice : kChoices) total_weight += choice.weight;
    for (int step = 0; step < kSteps; ++step) {
      int pick = std::uniform_int_distribution<int>(0, total_weight - 1)(random_);
      const Choice* choice = kChoices;
      while (pick >= choice->weight) pick -= (choice++)->weight;
      const int pod = std::uniform_int_distribution<int>(0, kPods - 1)(random_);
      history_ += fmt::format(" {}({})", choice->name, pod);
      take(choice->step, pod);
      check_invariant();
    }
    tear_down();
    return kSteps;
  }

 private:
  enum class Step {
    Add,
    Del,
    DelAfterReboot,
    Check,
    Gc,
    Status,
    Doctor,
    MisdirectedDoctor,
    SourceVip,
    WipeStore,
    MoveStore,
    WipeCache,
    HnsRestart
  };
  struct Choice {
    Step step;
    int weight;
    const char* name;
  };
  static constexpr Choice kChoices[] = {
      {Step::Add, 8, "ADD"},
      {Step::Del, 3, "DEL"},
      {Step::DelAfterReboot, 2, "DEL without netns"},
      {Step::Check, 2, "CHECK"},
      {Step::Gc, 2, "GC"},
      {Step::Status, 1, "STATUS"},
      {Step::Doctor, 3, "doctor"},
      {Step::MisdirectedDoctor, 1, "doctor on the wrong folders"},
      {Step::SourceVip, 1, "source-vip"},
      {Step::WipeStore, 2, "store wiped"},
      {Step::MoveStore, 1, "store moved"},
      {Step::WipeCache, 2, "cache wiped"},
      {Step::HnsRestart, 1, "HNS restart"},
  };
  // What lies outside every data folder of the node: it must never change,
  // also when doctor is pointed at it as its flannel and IPAM folders (the
  // node's config folder, with names that look like a reservation, a lock, a
  // sandbox).
  static inline const std::map<std::string, std::string> kOutsideFiles = {
      {"10.244.1.3", "not a reservation"},
      {"lock", "not a lock"},
      {"pod1", "an operator's notes on pod1"},
      {"10-flannel.conf", R"({"cniVersion":"1.0.0","name":"cbr0","type":"flannel","delegate":{"type":"win-bridge"}})"}};

  struct Pod {
    bool live = false;
    std::string ns;
    std::string endpoint_id;
    bool endpoint_lost = false;  // an HNS restart took it; the pod runs on
  };

  std::string pod_name(int pod) const { return "pod" + std::to_string(pod); }
  std::string config(const std::string& version = "1.0.0") const { return config_(node_, version).dump(); }

  void take(Step step, int index) {
    namespace fs = std::filesystem;
    Pod& pod = pods_[index];
    const std::string name = pod_name(index);
    switch (step) {
      case Step::Add: {
        if (pod.live) return;
        const std::string ns = node_.create_namespace();
        const Run run = node_.plugin({"ADD", name, ns, config(), {{"WINCNI_ORPHAN_GRACE_MS", "100"}}});
        if (!run.ok()) {
          node_.hnsctl({"namespace", "delete", ns});
          return;
        }
        const auto endpoint = node_.endpoint(name + "_" + network_);
        REQUIRE_MESSAGE(endpoint, history_);
        pod = Pod{true, ns, (*endpoint)["ID"].template get<std::string>()};
        return;
      }
      case Step::Del:
      case Step::DelAfterReboot: {
        std::string netns = pod.ns;
        if (step == Step::DelAfterReboot && !pod.ns.empty()) {
          node_.hnsctl({"namespace", "delete", pod.ns});
          netns.clear();
        }
        const Run run = node_.plugin({"DEL", name, netns, config()});
        CHECK_MESSAGE(run.ok(), history_ << "\n" << run.out << run.err);
        if (!pod.ns.empty()) node_.hnsctl({"namespace", "delete", pod.ns});
        pod = Pod{};
        return;
      }
      case Step::Check: {
        // After a wiped store IPAM no longer confirms the address: CHECK may
        // fail, and must change nothing.
        const fs::path cached = fs::path(node_.runtime_cache_dir()) / (network_ + "-" + name + "-eth0");
        if (!pod.live || !fs::exists(cached)) return;
        nlohmann::json check = config_(node_, "1.0.0");
        check["prevResult"] = nlohmann::json::parse(file_text(cached))["result"];
        node_.plugin({"CHECK", name, pod.ns, check.dump()});
        return;
      }
      case Step::Gc: {
        nlohmann::json gc = config_(node_, "1.1.0");
        gc["cni.dev/valid-attachments"] = nlohmann::json::array();
        for (int i = 0; i < kPods; ++i) {
          if (pods_[i].live)
            gc["cni.dev/valid-attachments"].push_back({{"containerID", pod_name(i)}, {"ifname", "eth0"}});
        }
        const Run run = node_.plugin({"GC", "", "", gc.dump()});
        CHECK_MESSAGE(run.ok(), history_ << "\n" << run.out << run.err);
        return;
      }
      case Step::Status:
        node_.plugin({"STATUS", "", "", config("1.1.0")});
        return;
      case Step::Doctor: {
        // The node's config folder holds the plugin's config, as a node's does.
        fs::create_directories(node_.path("net.d"));
        std::ofstream(fs::path(node_.path("net.d")) / "10-wincni.conf") << config();
        fs::create_directories(node_.runtime_cache_dir());
        node_.hnsctl({"doctor", "--apply", "--grace", "0", "--cache-dir", node_.runtime_cache_dir(), "--data-dir",
                      node_.ipam_dir(), "--flannel-dir", node_.scratch_dir(), "--conf-dir", node_.path("net.d")});
        return;
      }
      case Step::MisdirectedDoctor:
        fs::create_directories(node_.runtime_cache_dir());
        fs::create_directories(node_.path("net.d"));
        node_.hnsctl({"doctor", "--apply", "--grace", "0", "--cache-dir", node_.runtime_cache_dir(), "--data-dir",
                      outside_.string(), "--flannel-dir", outside_.string(), "--conf-dir", node_.path("net.d")});
        return;
      case Step::SourceVip:
        node_.hnsctl({"source-vip", network_, "--data-dir", node_.ipam_dir()});
        return;
      case Step::WipeStore:
        fs::remove_all(fs::path(node_.ipam_dir()) / network_);
        return;
      case Step::MoveStore: {
        const fs::path store = fs::path(node_.ipam_dir()) / network_;
        if (fs::exists(store)) fs::rename(store, node_.path("moved-store-" + std::to_string(moves_++)));
        return;
      }
      case Step::WipeCache: {
        std::error_code none;
        for (const auto& entry : fs::directory_iterator(node_.runtime_cache_dir(), none)) fs::remove(entry.path());
        return;
      }
      case Step::HnsRestart: {
        // HNS itself drops the pods' endpoints; their namespaces, and the
        // runtime's record of the pods, stay.
        hns::HnsClient client = node_client(node_);
        for (Pod& each : pods_) {
          if (!each.live || each.endpoint_lost) continue;
          const hns::Guid endpoint = *hns::Guid::parse(each.endpoint_id);
          client.detach_from_namespace(*hns::Guid::parse(each.ns), endpoint);
          client.delete_endpoint(endpoint);
          each.endpoint_lost = true;
        }
        return;
      }
    }
  }

  bool outside_intact() const {
    namespace fs = std::filesystem;
    if (std::distance(fs::directory_iterator(outside_), fs::directory_iterator()) !=
        static_cast<std::ptrdiff_t>(kOutsideFiles.size())) {
      return false;
    }
    for (const auto& [name, text] : kOutsideFiles) {
      if (!fs::is_regular_file(outside_ / name) || file_text(outside_ / name) != text) return false;
    }
    return true;
  }

  void check_invariant() {
    INFO("sequence ", number_, ":", history_);
    hns::HnsClient client = node_client(node_);
    for (int i = 0; i < kPods; ++i) {
      const Pod& pod = pods_[i];
      if (!pod.live || pod.endpoint_lost) continue;
      const auto endpoint = client.find_endpoint(*hns::Guid::parse(pod.endpoint_id));
      REQUIRE_MESSAGE(endpoint, pod_name(i), "'s endpoint was deleted while its pod lives");
      CHECK_MESSAGE(endpoint->host_compute_namespace == *hns::Guid::parse(pod.ns), pod_name(i),
                    "'s endpoint is no longer attached to its namespace");
    }
    std::map<std::string, std::string> holders;
    for (const hns::HostComputeEndpoint& endpoint : client.list_endpoints()) {
      for (const auto& configuration : endpoint.ip_configurations) {
        // Not a structured binding: clang 14 cannot capture one (doctest's
        // message is a lambda).
        const auto inserted = holders.emplace(configuration.ip_address.str(), endpoint.name);
        CHECK_MESSAGE(inserted.second, configuration.ip_address.str(), " is held by ", inserted.first->second,
                      " and by ", endpoint.name);
      }
    }
    REQUIRE_MESSAGE(outside_intact(), "a file outside the data folders changed");
  }

  // Every pod leaves; then nothing of theirs stays on HNS.
  void tear_down() {
    for (int i = 0; i < kPods; ++i) {
      if (!pods_[i].live) continue;
      const Run run = node_.plugin({"DEL", pod_name(i), pods_[i].ns, config()});
      CHECK_MESSAGE(run.ok(), history_ << "\n" << run.out << run.err);
    }
    for (const nlohmann::json& endpoint : node_.endpoints()) {
      const std::string name = endpoint.value("Name", "");
      CHECK_MESSAGE(!name.starts_with("pod"), "endpoint ", name, " outlived its pod's DEL; ", history_);
    }
  }

  Node& node_;
  std::mt19937& random_;
  int number_;
  std::string network_;
  Config config_;
  std::filesystem::path outside_;
  Pod pods_[kPods];
  int moves_ = 0;
  std::string history_;
};

}  // namespace wincni::test
