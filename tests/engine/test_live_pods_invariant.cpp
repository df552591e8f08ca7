// The safety invariant of every deleting action, as a model-based test:
// random sequences of ADD, DEL, CHECK, GC, STATUS, hnsctl doctor --apply,
// hnsctl source-vip, wipes and moves of IPAM's store and wipes of the
// runtime's cache, over a few pods of each flavor. After every step:
//   - every live pod (its ADD succeeded, no DEL of its own since) still has
//     its endpoint, attached to its namespace: nothing else deleted it;
//   - no address is held twice on the network (HNS's endpoints);
//   - nothing outside the node's data folders changed.
// The sequences come from a fixed seed (WINCNI_INVARIANT_SEED changes it),
// and the test prints how many sequences and steps it ran.

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "file_text.hpp"
#include "flavor_cases.hpp"
#include "foreign_endpoint.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr int kPods = 4;
constexpr int kSequences = 20;
constexpr int kSteps = 30;

enum class Step { Add, Del, DelAfterReboot, Check, Gc, Status, Doctor, SourceVip, WipeStore, MoveStore, WipeCache };

struct StepChoice {
  Step step;
  int weight;
  const char* name;
};

constexpr StepChoice kStepChoices[] = {
    {Step::Add, 8, "ADD"},        {Step::Del, 3, "DEL"},           {Step::DelAfterReboot, 2, "DEL without netns"},
    {Step::Check, 2, "CHECK"},    {Step::Gc, 2, "GC"},             {Step::Status, 1, "STATUS"},
    {Step::Doctor, 3, "doctor"},  {Step::SourceVip, 1, "source-vip"}, {Step::WipeStore, 2, "store wiped"},
    {Step::MoveStore, 1, "store moved"}, {Step::WipeCache, 2, "cache wiped"},
};

struct Pod {
  bool live = false;
  std::string ns;
  std::string endpoint_id;
};

std::uint32_t seed() {
  const char* text = std::getenv("WINCNI_INVARIANT_SEED");
  return text != nullptr ? static_cast<std::uint32_t>(std::strtoul(text, nullptr, 10)) : 20261128U;
}

// What lies outside every data folder of the node: it must never change.
struct Sentinel {
  fs::path dir;
  explicit Sentinel(const EmulatedNode& node) : dir(node.path("outside")) {
    fs::create_directories(dir);
    std::ofstream(dir / "10.244.1.3") << "not a reservation";
    std::ofstream(dir / "lock") << "not a lock";
    std::ofstream(dir / "pod1") << R"({"type":"win-bridge"})";
  }
  bool intact() const {
    return fs::exists(dir / "10.244.1.3") && file_text(dir / "10.244.1.3") == "not a reservation" &&
           file_text(dir / "lock") == "not a lock" && file_text(dir / "pod1") == R"({"type":"win-bridge"})" &&
           std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 3;
  }
};

template <class Case>
class Sequence {
 public:
  Sequence(std::mt19937& random, int number) : random_(random), number_(number), sentinel_(node_) {}

  int run() {
    int total_weight = 0;
    for (const StepChoice& choice : kStepChoices) total_weight += choice.weight;
    int steps = 0;
    for (; steps < kSteps; ++steps) {
      int pick = std::uniform_int_distribution<int>(0, total_weight - 1)(random_);
      const StepChoice* choice = kStepChoices;
      while (pick >= choice->weight) pick -= (choice++)->weight;
      const int pod = std::uniform_int_distribution<int>(0, kPods - 1)(random_);
      history_ += fmt::format(" {}({})", choice->name, pod);
      take(choice->step, pod);
      check_invariant();
    }
    tear_down();
    return steps;
  }

 private:
  std::string pod_name(int pod) const { return "pod" + std::to_string(pod); }
  std::string config(const std::string& version = "1.0.0") const { return node_.config(version).dump(); }

  void take(Step step, int index) {
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
        const auto endpoint = node_.endpoint(name + "_" + Case::kNetwork);
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
        if (!pod.live) return;
        // After a wiped store IPAM no longer confirms the address: CHECK may
        // fail, and must change nothing.
        json check = node_.config("1.0.0");
        const auto cached = fs::path(node_.runtime_cache_dir()) / (std::string(Case::kNetwork) + "-" + name + "-eth0");
        if (!fs::exists(cached)) return;
        check["prevResult"] = json::parse(file_text(cached))["result"];
        node_.plugin({"CHECK", name, pod.ns, check.dump()});
        return;
      }
      case Step::Gc: {
        json gc = node_.config("1.1.0");
        gc["cni.dev/valid-attachments"] = json::array();
        for (int i = 0; i < kPods; ++i) {
          if (pods_[i].live) gc["cni.dev/valid-attachments"].push_back({{"containerID", pod_name(i)}, {"ifname", "eth0"}});
        }
        const Run run = node_.plugin({"GC", "", "", gc.dump()});
        CHECK_MESSAGE(run.ok(), history_ << "\n" << run.out << run.err);
        return;
      }
      case Step::Status:
        node_.plugin({"STATUS", "", "", config("1.1.0")});
        return;
      case Step::Doctor:
        fs::create_directories(node_.runtime_cache_dir());
        write_config_folder();
        node_.hnsctl({"doctor", "--apply", "--grace", "0", "--cache-dir", node_.runtime_cache_dir(), "--data-dir",
                      node_.ipam_dir(), "--flannel-dir", node_.scratch_dir(), "--conf-dir", node_.path("net.d")});
        return;
      case Step::SourceVip:
        node_.hnsctl({"source-vip", Case::kNetwork, "--data-dir", node_.ipam_dir()});
        return;
      case Step::WipeStore:
        fs::remove_all(fs::path(node_.ipam_dir()) / Case::kNetwork);
        return;
      case Step::MoveStore: {
        const fs::path store = fs::path(node_.ipam_dir()) / Case::kNetwork;
        if (fs::exists(store)) fs::rename(store, node_.path("moved-store-" + std::to_string(moves_++)));
        return;
      }
      case Step::WipeCache: {
        std::error_code none;
        for (const auto& entry : fs::directory_iterator(node_.runtime_cache_dir(), none)) fs::remove(entry.path());
        return;
      }
    }
  }

  // The node's config folder, holding the flavor's config as a node's does.
  void write_config_folder() {
    fs::create_directories(node_.path("net.d"));
    std::ofstream(fs::path(node_.path("net.d")) / "10-wincni.conf") << config();
  }

  void check_invariant() {
    INFO("sequence ", number_, ":", history_);
    hns::HnsClient client = node_client(node_);
    for (int i = 0; i < kPods; ++i) {
      const Pod& pod = pods_[i];
      if (!pod.live) continue;
      const auto endpoint = client.find_endpoint(*hns::Guid::parse(pod.endpoint_id));
      REQUIRE_MESSAGE(endpoint, pod_name(i), "'s endpoint was deleted while its pod lives");
      CHECK_MESSAGE(endpoint->host_compute_namespace == *hns::Guid::parse(pod.ns),
                    pod_name(i), "'s endpoint is no longer attached to its namespace");
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
    REQUIRE_MESSAGE(sentinel_.intact(), "a file outside the data folders changed");
  }

  // Every pod leaves; then nothing of theirs stays on HNS.
  void tear_down() {
    for (int i = 0; i < kPods; ++i) {
      if (!pods_[i].live) continue;
      const Run run = node_.plugin({"DEL", pod_name(i), pods_[i].ns, config()});
      CHECK_MESSAGE(run.ok(), history_ << "\n" << run.out << run.err);
    }
    for (const json& endpoint : node_.endpoints()) {
      const std::string name = endpoint.value("Name", "");
      CHECK_MESSAGE(!name.starts_with("pod"), "endpoint ", name, " outlived its pod's DEL; ", history_);
    }
  }

  std::mt19937& random_;
  int number_;
  CaseNode<Case> node_;
  Sentinel sentinel_;
  Pod pods_[kPods];
  int moves_ = 0;
  std::string history_;
};

}  // namespace

TEST_CASE_TEMPLATE("no deleting action removes a live pod's endpoint, no address is held twice, nothing outside the "
                   "data folders changes",
                   Case, WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  std::mt19937 random(seed());
  int steps = 0;
  for (int number = 0; number < kSequences; ++number) steps += Sequence<Case>(random, number).run();
  MESSAGE(std::string(Case::kName), ": ", kSequences, " sequences, ", steps, " steps, seed ", seed(), ", invariant held after each");
}
