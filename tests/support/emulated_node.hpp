#pragma once
// An emulated Windows node for end-to-end tests: an HNS emulator state dir,
// a plugin data dir and a host-local data dir in a scratch directory, and the
// real binaries run against it as a runtime would run them: the plugin under
// test (WINCNI_PLUGIN: win-bridge, win-overlay, ...), hnsctl and host-local.
// The binaries' paths come from the environment meson sets for each suite,
// so a plugin's e2e folder is its own tests and a meson entry.
// tests/engine runs the same calls in process (engine_node.hpp).

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "emulator_switches.hpp"
#include "scratch_dir.hpp"
#include "wincni/cni/env.hpp"
#include "wincni/os/process.hpp"
#include "wincni/cni/result.hpp"

namespace wincni::test {

struct Run {
  int exit_code = -1;  // -1 also when it was killed at the time limit
  std::string out;
  std::string err;
  bool timed_out = false;

  bool ok() const { return exit_code == 0; }
  // How it ended, for a failure message: the exit status too, since a
  // program that never started (seen once under Wine) prints nothing.
  // Hex too: a Windows status (0xC0000142, a DLL that failed to start) reads
  // as a large negative number.
  std::string report() const {
    return fmt::format("{} ({:#010x})\nstdout: {}\nstderr: {}",
                       timed_out ? "killed at the time limit" : "exit " + std::to_string(exit_code),
                       static_cast<unsigned>(exit_code), out, err);
  }
  nlohmann::json json() const { return nlohmann::json::parse(out, nullptr, false); }
  // The CNI error code printed on failure (0 when none).
  int code() const {
    auto parsed = json();
    return parsed.is_object() && parsed.contains("code") ? parsed["code"].get<int>() : 0;
  }
  std::string msg() const {
    auto parsed = json();
    return parsed.is_object() && parsed.contains("msg") ? parsed["msg"].get<std::string>() : std::string{};
  }
};

// One call of the plugin, as a runtime makes it.
struct PluginCall {
  std::string command;
  std::string container;
  std::string netns;
  std::string config;
  std::map<std::string, std::string> env = {};
  std::string ifname = "eth0";
};

class EmulatedNode {
 public:
  EmulatedNode() { std::filesystem::create_directories(dir_ / "hns"); }
  virtual ~EmulatedNode() = default;

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string ipam_dir() const { return path("ipam"); }
  // flannel's dataDir, where it keeps each pod's delegate config.
  std::string scratch_dir() const { return path("flannel"); }
  // The runtime's CNI result cache (libcni's), as containerd keeps it: a
  // file for each attachment whose ADD succeeded and that no DEL removed.
  std::string runtime_cache_dir() const { return path("cni-cache/results"); }

  // `config_text` with host-local's data (if it uses host-local) kept in
  // this node's scratch directory.
  nlohmann::json with_scratch_ipam(std::string_view config_text) const {
    nlohmann::json config = nlohmann::json::parse(config_text);
    if (config.contains("ipam") && config["ipam"].value("type", "") == "host-local") {
      config["ipam"]["dataDir"] = ipam_dir();
    }
    return config;
  }

  cni::Environment env() const {
    cni::Environment env;
    env.set("PATH", std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin");
    env.set("WINCNI_EMULATOR_DIR", path("hns"));
    for (const char* name : kEmulatorSwitches) {
      if (const char* value = std::getenv(name)) env.set(name, value);
    }
    for (const char* name : kSanitizerSettings) {
      if (const char* value = std::getenv(name)) env.set(name, value);
    }
    if (const char* value = std::getenv(kDelegationSwitch)) env.set(kDelegationSwitch, value);
    env.set("WINCNI_DATA_DIR", path("plugin"));
    // A meta plugin's suite (flannel) names every delegate's folder.
    const char* cni_path = std::getenv("WINCNI_CNI_PATH");
    env.set("CNI_PATH", cni_path != nullptr ? std::string(cni_path) : binary_dir("WINCNI_HOST_LOCAL"));
    return env;
  }

  // `input` is its stdin: explain reads a config from it as from a file.
  Run hnsctl(const std::vector<std::string>& args, const std::map<std::string, std::string>& extra = {},
             const std::string& input = "") const {
    return run_program(binary("WINCNI_HNSCTL"), args, input, extra);
  }

  // host-local run by hand, as the node's scripts run it: `variables` are
  // the CNI_* ones, `input` its stdin as the script writes it.
  Run host_local(const std::string& input, const std::map<std::string, std::string>& variables) const {
    return run_program(binary("WINCNI_HOST_LOCAL"), {}, input, variables);
  }

  // flanneld's host-gw node: L2Bridge <name> on <subnet>, gateway .1, cbr0_ep at .2.
  void host_gw(const std::string& subnet = "10.244.1.0/24", const std::string& name = "cbr0") const {
    Run run = hnsctl({"node", "host-gw", "--subnet", subnet, "--name", name});
    REQUIRE_MESSAGE(run.ok(), run.report());
  }

  // flanneld's vxlan node: Overlay <name> on <subnet> with VSID <vni>, gateway .1.
  void vxlan(const std::string& subnet = "10.244.3.0/24", const std::string& name = "flannel.4096",
             const std::string& vni = "4096") const {
    Run run = hnsctl({"node", "vxlan", "--subnet", subnet, "--name", name, "--vni", vni});
    REQUIRE_MESSAGE(run.ok(), run.report());
  }

  std::string create_namespace() const {
    Run run = hnsctl({"namespace", "create"});
    REQUIRE_MESSAGE(run.ok(), run.report());
    std::string id = run.out;
    while (!id.empty() && (id.back() == '\n' || id.back() == '\r')) id.pop_back();
    return id;
  }

  // dockershim: Docker starts a container before it asks for its network,
  // so the container's compute system is in HCS when ADD hot-adds the
  // endpoint (docs/engine.md). Tests of a container that is not running
  // turn this off.
  bool starts_containers = true;

  void start_container(const std::string& id) const {
    Run run = hnsctl({"container", "start", id});
    // No doctest macro that succeeds: this runs on pods' threads too.
    if (!run.ok()) FAIL("hnsctl container start " << id << ": " << run.report());
    std::lock_guard<std::mutex> lock(started_->mutex);
    started_->ids.insert(id);
  }
  void stop_container(const std::string& id) const {
    Run run = hnsctl({"container", "stop", id});
    if (!run.ok()) FAIL("hnsctl container stop " << id << ": " << run.report());
    std::lock_guard<std::mutex> lock(started_->mutex);
    started_->ids.erase(id);
  }

  // The plugin under test, as the runtime runs it.
  Run plugin(const PluginCall& call) const {
    as_runtime_before(call);
    Run run = invoke(call);
    as_runtime_after(call, run);
    return run;
  }

  // ADD that must succeed; its result in the config's version.
  nlohmann::json add(const std::string& container, const std::string& netns, const std::string& config,
                     const std::map<std::string, std::string>& extra_env = {}) const {
    Run run = plugin({"ADD", container, netns, config, extra_env});
    REQUIRE_MESSAGE(run.ok(), "ADD failed: " << run.report());
    return run.json();
  }

  void del(const std::string& container, const std::string& netns, const std::string& config) const {
    Run run = plugin({"DEL", container, netns, config});
    REQUIRE_MESSAGE(run.ok(), "DEL failed: " << run.report());
  }

  // The invariants (docs/hnsctl.md, "doctor"): what `hnsctl doctor` finds
  // on this node with the runtime's cache above — an endpoint of ours, an
  // address or a flannel scratch file of a pod the runtime no longer has,
  // an endpoint in a namespace that is gone, and everything `hnsctl audit`
  // reports of HNS —, and under Wine the strings the emulator DLLs handed
  // out that a process never freed with CoTaskMemFree (cotaskmem-leaks.log);
  // "" when the node is clean.
  // The runtime forgets an attachment without a DEL (a crash; libcni's GC,
  // which synthesises DEL for what is not valid, forgets it too).
  void forget(const std::string& container, const std::string& network, const std::string& ifname = "eth0") const {
    std::error_code none;
    std::filesystem::remove(std::filesystem::path(runtime_cache_dir()) / (network + "-" + container + "-" + ifname),
                            none);
  }

  std::string audit() const {
    std::filesystem::create_directories(runtime_cache_dir());
    // No config: doctor then only reports (a leftover reservation of a
    // network no wincni config names is left alone), which is all a check
    // needs.
    std::filesystem::create_directories(path("no-configs"));
    Run run = hnsctl({"doctor", "--grace", "0", "--cache-dir", runtime_cache_dir(), "--data-dir", ipam_dir(),
                      "--flannel-dir", scratch_dir(), "--conf-dir", path("no-configs")});
    std::string found = run.ok() ? std::string{} : run.out + run.err;
    std::ifstream leaks(dir_ / "hns" / "cotaskmem-leaks.log");
    if (leaks) found += std::string(std::istreambuf_iterator<char>(leaks), {});
    return found;
  }

  std::vector<nlohmann::json> endpoints() const { return list("endpoint"); }
  std::vector<nlohmann::json> networks() const { return list("network"); }

  std::optional<nlohmann::json> endpoint(const std::string& name) const {
    for (auto& endpoint : endpoints()) {
      if (endpoint.value("Name", "") == name) return endpoint;
    }
    return std::nullopt;
  }

  // The addresses host-local holds for network `network`: every entry but its
  // lock, last_reserved_ip.* and its owner index's folder.
  std::vector<std::string> held_addresses(const std::string& network) const {
    std::vector<std::string> held;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir_ / "ipam" / network, error)) {
      std::string name = entry.path().filename().string();
      if (name == "lock" || name.starts_with("last_reserved_ip.") || name == ".wincni-owners") continue;
      held.push_back(name);
    }
    return held;
  }

 protected:
  virtual Run invoke(const PluginCall& call) const {
    return run_program(binary("WINCNI_PLUGIN"), {}, call.config, call_variables(call));
  }

  // What the runtime has done before it runs the plugin for `call`: a
  // dockershim ADD (CNI_NETNS not a namespace ID) finds its container
  // running.
  void as_runtime_before(const PluginCall& call) const {
    if (!starts_containers || call.command != "ADD" || call.container.empty() || is_namespace_id(call.netns)) return;
    {
      std::lock_guard<std::mutex> lock(started_->mutex);
      if (started_->ids.count(call.container)) return;
    }
    start_container(call.container);
  }

  // What the runtime keeps of a call's outcome: libcni's cache entry for
  // an attachment, written when its ADD succeeds and removed when its DEL
  // does (containernetworking/cni libcni/api.go, cachedInfo).
  void as_runtime_after(const PluginCall& call, const Run& run) const {
    if (!run.ok() || call.container.empty() || (call.command != "ADD" && call.command != "DEL")) return;
    const nlohmann::json config = nlohmann::json::parse(call.config, nullptr, false);
    if (!config.is_object() || !config.contains("name") || !config["name"].is_string()) return;
    const std::string network = config["name"];
    const auto entry =
        std::filesystem::path(runtime_cache_dir()) / (network + "-" + call.container + "-" + call.ifname);
    if (call.command == "DEL") {
      std::error_code error;
      std::filesystem::remove(entry, error);
      return;
    }
    std::filesystem::create_directories(runtime_cache_dir());
    std::ofstream(entry, std::ios::binary) << nlohmann::json{
        {"kind", "cniCacheV1"},
        {"containerId", call.container},
        {"networkName", network},
        {"ifName", call.ifname},
        {"result", run.json()}}.dump();
  }

  // The variables `call` sets on top of the node's environment.
  static std::map<std::string, std::string> call_variables(const PluginCall& call) {
    std::map<std::string, std::string> extra = call.env;
    extra["CNI_COMMAND"] = call.command;
    if (!call.container.empty()) extra["CNI_CONTAINERID"] = call.container;
    if (!call.netns.empty()) extra["CNI_NETNS"] = call.netns;
    if (!call.ifname.empty()) extra["CNI_IFNAME"] = call.ifname;
    return extra;
  }

 private:
  static bool is_namespace_id(const std::string& netns) {
    return netns.size() == 36 && netns[8] == '-' && netns[13] == '-' && netns[18] == '-' && netns[23] == '-';
  }

  // Shared by copies of the node, as the HCS they talk to is.
  struct StartedContainers {
    std::mutex mutex;
    std::set<std::string> ids;
  };
  std::shared_ptr<StartedContainers> started_ = std::make_shared<StartedContainers>();

  static std::string binary(const char* variable) {
    const char* value = std::getenv(variable);
    // No doctest macro on the way that succeeds: pods' calls run on their
    // own threads, and with mingw's emulated TLS a thread that touched
    // doctest's thread_local streams crashes as it exits (their memory is
    // freed before their destructors run).
    if (value == nullptr) FAIL(std::string(variable) << " is not set (meson sets it for the test)");
    return value;
  }
  static std::string binary_dir(const char* variable) {
    return std::filesystem::path(binary(variable)).parent_path().string();
  }

  std::vector<nlohmann::json> list(const std::string& kind) const {
    Run run = hnsctl({kind, "list", "--json"});
    REQUIRE_MESSAGE(run.ok(), run.report());
    auto parsed = run.json();
    return parsed.is_array() ? parsed.get<std::vector<nlohmann::json>>() : std::vector<nlohmann::json>{};
  }

  Run run_program(const std::string& program, const std::vector<std::string>& args, const std::string& input,
                  const std::map<std::string, std::string>& extra) const {
    cni::Environment environment = env();
    for (const auto& [key, value] : extra) environment.set(key, value);
    os::ProcessSpec spec{program, args, environment.to_list(), input, std::chrono::seconds(60), {}};
    os::ProcessOutcome outcome = os::run_process(spec);
#ifdef _WIN32
    // Under Wine a program now and then ends with status 1 having printed
    // nothing (a CI run, a benchmark run: docs/fault-matrix.md). Ours never
    // end so: every failure of the skel and of hnsctl prints (the hostile
    // suite holds every non-zero exit to a JSON error natively), and the
    // emulator's crash cases end with 86. So it is Wine's start, and the
    // run is made once more; the log keeps what happened.
    if (outcome.exit_code == 1 && !outcome.timed_out && outcome.out.empty() && outcome.err.empty()) {
      MESSAGE(program << " ended with status 1 and no output under Wine; run again");
      outcome = os::run_process(spec);
    }
#endif
    // In a sanitized build a report ends the process (meson.build), which a
    // fault or crash case may take for the death it expects: the report
    // itself fails the test.
    const std::string& err = outcome.err;
    if (err.find("==ERROR: ") != std::string::npos || err.find(": runtime error: ") != std::string::npos) {
      FAIL_CHECK("a sanitizer report from " << program << ":\n" << outcome.err);
    }
    return Run{outcome.timed_out ? -1 : outcome.exit_code, outcome.out, outcome.err, outcome.timed_out};
  }

  ScratchDir dir_;
};

}  // namespace wincni::test
