// host-local in win-bridge's process (wincni/cni/carried_plugins.hpp): when
// the file CNI_PATH resolves is host-local of this very build, and only then;
// the switch and the config key start the file instead; both ways give the
// runtime the same bytes. Which way ran is read from the log, whose lines
// name their plugin and its process ID.

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <algorithm>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "scratch_dir.hpp"
#include "wincni/cni/plugin_identity.hpp"

using namespace wincni;
using namespace wincni::test;

namespace {

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The process IDs that logged `plugin`'s lines in the log at `path`.
std::set<std::string> logging_processes(const std::string& path, const std::string& plugin) {
  std::set<std::string> ids;
  const std::string text = file_text(path);
  const std::regex line(" " + plugin + "\\[([0-9]+)\\] ");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator(); ++it) {
    ids.insert((*it)[1]);
  }
  return ids;
}

struct Ran {
  Run add, del;
  bool in_process = false;

  // The ADD's result without what differs from node to node (the pod's
  // namespace ID).
  std::string add_result() const {
    nlohmann::json result = add.json();
    if (result.contains("interfaces")) {
      for (auto& interface : result["interfaces"]) interface.erase("sandbox");
    }
    return result.dump();
  }
};

// The config for a node: bridge_config with host-local's store in it, with
// `change` made.
using ConfigChange = std::function<void(nlohmann::json&)>;

// ADD then DEL of one pod on a fresh node, logged; whether host-local logged
// from win-bridge's process.
Ran add_and_del(std::map<std::string, std::string> env, const ConfigChange& change = {}) {
  EmulatedNode node;
  node.host_gw();
  nlohmann::json config = bridge_config(node);
  if (change) change(config);
  const std::string netns = node.create_namespace();
  const std::string log = node.path("wincni.log");
  env["WINCNI_LOG_FILE"] = log;
  Ran ran;
  ran.add = node.plugin({"ADD", "pod1", netns, config.dump(), env});
  ran.del = node.plugin({"DEL", "pod1", netns, config.dump(), env});
  const auto bridge = logging_processes(log, "win-bridge");
  const auto host_local = logging_processes(log, "host-local");
  REQUIRE_MESSAGE(bridge.size() == 2, file_text(log));
  REQUIRE_MESSAGE(!host_local.empty(), file_text(log));
  ran.in_process = host_local == bridge;
  if (!ran.in_process)
    CHECK_MESSAGE(std::ranges::none_of(host_local, [&](auto& id) { return bridge.contains(id); }), file_text(log));
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
  return ran;
}

// This test's choice, whatever the suite's (a suite runs every case with
// the process path, tests/e2e/win-bridge/meson.build).
const std::map<std::string, std::string> kInProcess = {{"WINCNI_DELEGATE_IN_PROCESS", "1"}};
const std::map<std::string, std::string> kAsProcess = {{"WINCNI_DELEGATE_IN_PROCESS", "0"}};

// A copy of this build's host-local made another build's: one digit of its
// fingerprint changed, the rest the same code.
std::string other_build_folder(const ScratchDir& dir) {
  const std::filesystem::path ours = std::getenv("WINCNI_HOST_LOCAL");
  std::string bytes = file_text(ours.string());
  // The identity's own copy of the fingerprint (the section's), not the one
  // the code compares with.
  const std::string identity = "wincni-plugin\nhost-local\n" + std::string(cni::build_fingerprint()) + "\n";
  const std::size_t found = bytes.find(identity);
  REQUIRE(found != std::string::npos);
  const std::size_t at = found + identity.size() - 2;
  bytes[at] = bytes[at] == '0' ? '1' : '0';
  const std::filesystem::path folder = dir.path() / "other-build";
  std::filesystem::create_directories(folder);
  const std::filesystem::path copy = folder / ours.filename();
  std::ofstream(copy, std::ios::binary) << bytes;
  std::filesystem::permissions(copy, std::filesystem::perms::owner_all);
  return folder.string();
}

}  // namespace

TEST_CASE("host-local of this build runs in win-bridge's process; the switch and the config key start its file") {
  const Ran in_process = add_and_del(kInProcess);
  REQUIRE_MESSAGE(in_process.add.ok(), in_process.add.report());
  REQUIRE_MESSAGE(in_process.del.ok(), in_process.del.report());
  CHECK(in_process.in_process);

  const Ran switched = add_and_del(kAsProcess);
  CHECK_FALSE(switched.in_process);
  CHECK(switched.add_result() == in_process.add_result());
  CHECK(switched.del.out == in_process.del.out);

  const Ran by_key = add_and_del(kInProcess, [](nlohmann::json& config) { config["delegateInProcess"] = false; });
  CHECK_FALSE(by_key.in_process);
  CHECK_MESSAGE(by_key.add.ok(), by_key.add.report());
  // The key is one win-bridge knows: no warning of an unknown key.
  CHECK(by_key.add.err.find("delegateInProcess") == std::string::npos);
}

TEST_CASE("a host-local of another build is started as a process, with the same answer") {
  ScratchDir dir;
  std::map<std::string, std::string> env = kInProcess;
  env["CNI_PATH"] = other_build_folder(dir);
  const Ran other = add_and_del(env);
  REQUIRE_MESSAGE(other.add.ok(), other.add.report());
  CHECK_FALSE(other.in_process);
  CHECK(other.add_result() == add_and_del(kInProcess).add_result());
}

TEST_CASE("host-local's errors are the same bytes in process and as a process") {
  std::vector<std::string> answers;
  for (const auto& env : {kInProcess, kAsProcess}) {
    EmulatedNode node;
    node.host_gw();
    nlohmann::json config = bridge_config(node);
    config["ipam"]["ranges"] = nlohmann::json::array({nlohmann::json::array({{{"subnet", "10.244.1.0/33"}}})});
    const Run add = node.plugin({"ADD", "pod1", node.create_namespace(), config.dump(), env});
    CHECK(add.exit_code == 1);
    CHECK(add.code() != 0);
    answers.push_back(add.out);
    CHECK(node.held_addresses("cbr0").empty());
    CHECK(node.audit() == "");
  }
  CHECK(answers[0] == answers[1]);
}
