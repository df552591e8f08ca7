// flannel before flanneld is ready and when things fail: waiting for
// subnet.env, STATUS naming what is missing, failed ADDs leaving nothing,
// many pods at once, GC.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <future>
#include <thread>

#include "flannel_node.hpp"
#include "simultaneous_pods.hpp"

using namespace wincni::test;
using nlohmann::json;

namespace {

Run status(const FlannelNode& node, const json& config) { return node.plugin({"STATUS", "", "", config.dump()}); }

}  // namespace

TEST_CASE("subnet.env appearing while an ADD waits: the ADD goes on when flanneld writes it") {
  FlannelNode node;
  node.host_gw("10.244.4.0/24", "cbr0");
  const json config = node.config("cbr0", {{"subnetFileWaitSeconds", 30}});
  const std::string netns = node.create_namespace();
  auto add = std::async(std::launch::async, [&] { return node.plugin({"ADD", "pod1", netns, config.dump()}); });
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  node.write_subnet_env(subnet_env_fixture("host-gw-v4.env"));
  const Run run = add.get();
  CHECK_MESSAGE(run.ok(), run.out << run.err);
  node.del("pod1", netns, config.dump());
  node.check_clean("cbr0");
}

TEST_CASE("subnet.env missing: code 11 saying what to check, after the configured wait, and nothing left behind") {
  FlannelNode node;
  node.host_gw("10.244.4.0/24", "cbr0");
  const Run run = node.plugin({"ADD", "pod1", node.create_namespace(), node.config("cbr0").dump()});
  CHECK(run.code() == 11);
  CHECK(run.msg().find("flanneld runs on this node") != std::string::npos);
  node.check_clean("cbr0");
}

TEST_CASE("subnet.env that is not one: a clear error with a fitting code, nothing left behind") {
  FlannelNode node;
  node.host_gw("10.244.4.0/24", "cbr0");
  const json config = node.config("cbr0");
  struct Case {
    std::string content;
    int code;
  };
  for (const Case& c : {Case{"", 7}, Case{std::string(subnet_env_fixture("malformed.env")), 7},
                        Case{"FLANNEL_MTU\n", 7}, Case{std::string(10 * 1024 * 1024, 'x'), 7}}) {
    node.write_subnet_env(c.content);
    const Run run = node.plugin({"ADD", "pod1", node.create_namespace(), config.dump()});
    CHECK_MESSAGE(run.code() == c.code, run.out);
    node.check_clean("cbr0");
  }
  std::filesystem::remove(node.subnet_file());
  std::filesystem::create_directories(node.subnet_file());
  const Run directory = node.plugin({"ADD", "pod1", node.create_namespace(), config.dump()});
  CHECK(directory.code() == 5);
  node.check_clean("cbr0");
}

TEST_CASE("STATUS names the missing piece: subnet.env, the delegate plugin, the network; then ready") {
  FlannelNode node;
  const json config = node.config("cbr0", {{"cniVersion", "1.1.0"}});
  Run run = status(node, config);
  CHECK(run.code() == 50);
  CHECK(run.msg().find("subnet.env") != std::string::npos);

  node.write_subnet_env(subnet_env_fixture("host-gw-v4.env"));
  run = status(node, node.config("cbr0", {{"cniVersion", "1.1.0"}, {"delegate", {{"type", "win-nothing"}}}}));
  CHECK(run.code() == 50);
  CHECK(run.msg().find("win-nothing") != std::string::npos);

  run = status(node, config);  // win-bridge answers: no network cbr0 yet
  CHECK(run.code() == 50);
  CHECK(run.msg().find("cbr0") != std::string::npos);

  node.host_gw("10.244.4.0/24", "cbr0");
  run = status(node, config);
  CHECK_MESSAGE(run.ok(), run.out << run.err);
  CHECK(node.held_addresses("cbr0").empty());  // STATUS changes nothing
}

TEST_CASE("a failed ADD is undone: no scratch file, no address, no endpoint") {
  FlannelNode node;
  node.host_gw_node();
  // win-overlay on host-gw's L2Bridge network: the delegate refuses it after IPAM.
  const json wrong_backend = node.config("cbr0", {{"delegate", {{"type", "win-overlay"}}}});
  Run run = node.plugin({"ADD", "pod1", node.create_namespace(), wrong_backend.dump()});
  CHECK(run.code() == 120);  // the network is not an overlay
  node.check_clean("cbr0");

  const json no_such_delegate = node.config("cbr0", {{"delegate", {{"type", "win-nothing"}}}});
  run = node.plugin({"ADD", "pod1", node.create_namespace(), no_such_delegate.dump()});
  CHECK(run.code() == 7);
  CHECK(run.msg().find("win-nothing") != std::string::npos);
  node.check_clean("cbr0");
}

TEST_CASE("30 pods at once: unique addresses from .3 on, then all gone") {
  FlannelNode node;
  node.host_gw_node();
  const json config = node.config("cbr0");
  std::vector<std::string> namespaces;
  for (int i = 0; i < 30; ++i) namespaces.push_back(node.create_namespace());
  const auto added = added_addresses(at_once(node, "ADD", namespaces, config.dump()));
  CHECK(added.size() == 30);
  CHECK_FALSE(added.contains("10.244.4.2/24"));
  for (const Run& run : at_once(node, "DEL", namespaces, config.dump())) CHECK_MESSAGE(run.ok(), run.out);
  node.check_clean("cbr0");
}

TEST_CASE("GC: the delegate collects what is not valid, flannel its scratch files") {
  FlannelNode node;
  node.host_gw_node();
  const json config = node.config("cbr0", {{"cniVersion", "1.1.0"}});
  const std::string kept_ns = node.create_namespace();
  node.add("kept", kept_ns, config.dump());
  node.add("gone", node.create_namespace(), config.dump());
  json gc = config;
  gc["cni.dev/valid-attachments"] = json::array({{{"containerID", "kept"}, {"ifname", "eth0"}}});
  const Run run = node.plugin({"GC", "", "", gc.dump()});
  CHECK_MESSAGE(run.ok(), run.out << run.err);
  CHECK(node.has_scratch("kept"));
  CHECK_FALSE(node.has_scratch("gone"));
  CHECK_FALSE(node.endpoint("gone_cbr0"));
  CHECK(node.endpoint("kept_cbr0"));
  CHECK(node.held_addresses("cbr0").size() == 1);
  node.forget("gone", "cbr0");  // as the runtime's GC does
  node.del("kept", kept_ns, config.dump());
  node.check_clean("cbr0");
}

// security review, finding 5: a dataDir pointed at a folder that is not
// flannel's (the bin folder, net.d) must not be emptied by GC.
TEST_CASE("GC removes only flannel's saved delegate configs from its dataDir, never other files there") {
  FlannelNode node;
  node.host_gw_node();
  json config = node.config("cbr0", {{"cniVersion", "1.1.0"}});
  node.add("gone", node.create_namespace(), config.dump());
  const std::filesystem::path data_dir = node.scratch_dir();
  for (const char* name : {"hnsctl.exe", "10-flannel.conflist", "README.md", "10.244.1.3", "lock"}) {
    std::ofstream(data_dir / name) << "not flannel's " << name;
  }
  // The node's own configs, as in a dataDir pointed at the config folder.
  std::ofstream(data_dir / "10-flannel.conf") << config.dump();
  std::ofstream(data_dir / "cbr0") << json{
      {"cniVersion", "1.0.0"},
      {"name", "cbr0"},
      {"plugins", json::array({config})}}.dump();
  json gc = config;
  gc["cni.dev/valid-attachments"] = json::array();
  const Run run = node.plugin({"GC", "", "", gc.dump()});
  CHECK_MESSAGE(run.ok(), run.out << run.err);
  CHECK_FALSE(node.has_scratch("gone"));
  for (const char* name :
       {"hnsctl.exe", "10-flannel.conflist", "README.md", "10.244.1.3", "lock", "10-flannel.conf", "cbr0"}) {
    CHECK_MESSAGE(std::filesystem::exists(data_dir / name), name);
  }
}
