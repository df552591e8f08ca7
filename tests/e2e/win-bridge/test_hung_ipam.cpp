// A delegate that cannot answer: host-local waits for its store's lock, held
// by another host-local that hangs, at most the budget win-bridge gave it
// (three quarters of the delegate timeout, WINCNI_DELEGATE_TIMEOUT_MS, 60 s
// by default), then fails with code 11 naming the lock, in process or as a
// process alike; nothing is left, and once the store is free the runtime's
// next call succeeds. A delegate that never answers at all is killed at the
// timeout (the STATUS case below, and tests/unit/libcni/test_delegate.cpp).

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <string>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "wincni/os/file_lock.hpp"

using namespace wincni;
using namespace wincni::test;

namespace {

// The lock file of host-local's store for `network`, its folder made.
std::string store_lock(const EmulatedNode& node, const std::string& network) {
  const std::string store = node.ipam_dir() + "/" + network;
  std::filesystem::create_directories(store);
  return store + "/lock";
}

// What a host-local that hangs holding the network's store lock does to
// every other.
class HeldStore {
 public:
  HeldStore(const EmulatedNode& node, const std::string& network) : lock_(store_lock(node, network)) {}

 private:
  os::FileLock lock_;
};

const std::map<std::string, std::string> kShortTimeout = {{"WINCNI_DELEGATE_TIMEOUT_MS", "300"}};

}  // namespace

// The lock's path and that another process holds it.
bool names_held_lock(const std::string& msg) {
  return msg.find("for the lock ") != std::string::npos && msg.find("cbr0") != std::string::npos &&
         msg.find("another process holds it") != std::string::npos;
}

TEST_CASE("host-local hung on its store: ADD and DEL end with code 11 within the delegate timeout, nothing left") {
  EmulatedNode node;
  node.host_gw();
  const std::string config = bridge_config(node).dump();
  const std::string netns = node.create_namespace();
  {
    HeldStore held(node, "cbr0");
    const Run add = node.plugin({"ADD", "pod1", netns, config, kShortTimeout});
    CHECK(add.exit_code == 1);
    CHECK(add.code() == 11);
    CHECK_MESSAGE(names_held_lock(add.msg()), add.msg());
    CHECK_FALSE(node.endpoint("pod1_cbr0"));
  }
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");

  node.add("pod1", netns, config);
  {
    HeldStore held(node, "cbr0");
    const Run del = node.plugin({"DEL", "pod1", netns, config, kShortTimeout});
    CHECK(del.exit_code == 1);
    CHECK(del.code() == 11);
    CHECK_MESSAGE(names_held_lock(del.msg()), del.msg());
  }
  node.del("pod1", netns, config);
  CHECK_FALSE(node.endpoint("pod1_cbr0"));
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("STATUS with no network and IPAM hung: HNS's answer, once the delegate has been ended") {
  // IPAM's STATUS runs beside the HNS calls; the command waits for it even
  // when HNS's answer already decides, so no delegate outlives the plugin.
  // host-local's STATUS takes no lock, so a plugin that never answers
  // stands in for it: the test child, sleeping.
  EmulatedNode node;
  nlohmann::json config = bridge_config(node);
  config["cniVersion"] = "1.1.0";
  const std::filesystem::path child = std::getenv("WINCNI_TEST_CHILD");
  config["ipam"]["type"] = child.stem().string();
  std::map<std::string, std::string> env = kShortTimeout;
  env["WINCNI_LOG_STDERR"] = "warn";
  env["CNI_PATH"] = child.parent_path().string();
  env["WINCNI_TEST_SCRIPT"] = R"({"sleep_ms":30000,"ignore_stdin":true})";
  const Run run = node.plugin({"STATUS", "", "", config.dump(), env});
  CHECK(run.exit_code == 1);
  CHECK(run.code() == 50);
  CHECK_MESSAGE(run.msg().starts_with("network \"cbr0\" does not exist (yet)"), run.msg());
  // Logged once the delegate was killed at its timeout: it was waited for.
  CHECK_MESSAGE(run.err.find("the IPAM plugin failed as well: delegate plugin " + child.stem().string() +
                             " timed out after 300 ms") != std::string::npos,
                run.err);
}
