// hnsctl end to end: the binary on an emulated node, as an operator and the
// node's scripts run it: setting up flanneld's networks, listing them as
// tables and as HNS JSON, namespaces, kube-proxy's source VIP, audit, and
// its exit codes. The same program runs natively and, built for Windows,
// under Wine against hnsctl.exe and the emulator DLLs (hnsctl-e2e-wine).

#include <doctest/doctest.h>

#include <set>
#include <utility>

#ifdef _WIN32
#include <windows.h>
#endif

#include "emulated_node.hpp"
#include "file_text.hpp"
#include "foreign_endpoint.hpp"
#include "powershell_text.hpp"

namespace wincni::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

Run must(const Run& run) {
  INFO(run.out << run.err);
  REQUIRE(run.ok());
  return run;
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

TEST_CASE("node host-gw: the L2Bridge network and its host endpoint, as HNS JSON and as tables") {
  EmulatedNode node;
  node.host_gw("10.244.1.0/24");
  const auto networks = node.networks();
  REQUIRE(networks.size() == 1);
  const json& cbr0 = networks[0];
  CHECK(cbr0["Name"] == "cbr0");
  CHECK(cbr0["Type"] == "L2Bridge");
  CHECK(cbr0["Ipams"][0]["Subnets"][0]["IpAddressPrefix"] == "10.244.1.0/24");
  const auto endpoints = node.endpoints();
  REQUIRE(endpoints.size() == 1);
  CHECK(endpoints[0]["Name"] == "cbr0_ep");
  CHECK(endpoints[0]["IpConfigurations"][0]["IpAddress"] == "10.244.1.2");
  CHECK(endpoints[0]["HostComputeNetwork"] == cbr0["ID"]);

  const std::string table = must(node.hnsctl({"network", "list"})).out;
  CHECK(table.find("cbr0") != std::string::npos);
  CHECK(table.find("L2Bridge") != std::string::npos);
  CHECK(table.find("10.244.1.1") != std::string::npos);
  const std::string by_name = must(node.hnsctl({"network", "show", "cbr0"})).out;
  const std::string by_id = must(node.hnsctl({"network", "show", cbr0["ID"].get<std::string>()})).out;
  CHECK(by_name == by_id);
  CHECK(must(node.hnsctl({"endpoint", "show", "cbr0_ep"})).out.find("10.244.1.2") != std::string::npos);
  // As Get-HnsNetwork and Get-HnsEndpoint show them (HNS v1 objects).
  const json v1_networks = json::parse(must(node.hnsctl({"network", "list", "--v1"})).out);
  REQUIRE(v1_networks.size() == 1);
  CHECK(v1_networks[0]["Name"] == "cbr0");
  CHECK(v1_networks[0]["Subnets"][0]["AddressPrefix"] == "10.244.1.0/24");
  const json v1_endpoints = json::parse(must(node.hnsctl({"endpoint", "list", "--v1"})).out);
  REQUIRE(v1_endpoints.size() == 1);
  CHECK(v1_endpoints[0]["IPAddress"] == "10.244.1.2");
  CHECK(v1_endpoints[0]["VirtualNetworkName"] == "cbr0");
  CHECK(node.audit().empty());
}

TEST_CASE("node vxlan: the Overlay network with VSID, port and provider address") {
  EmulatedNode node;
  node.vxlan("10.244.3.0/24", "flannel.4096", "4096");
  const auto networks = node.networks();
  REQUIRE(networks.size() == 1);
  const json& overlay = networks[0];
  CHECK(overlay["Name"] == "flannel.4096");
  CHECK(overlay["Type"] == "Overlay");
  CHECK(overlay["Ipams"][0]["Subnets"][0]["Policies"][0] ==
        json{{"Type", "VSID"}, {"Settings", {{"IsolationId", 4096}}}});
  bool port = false;
  for (const json& policy : overlay["Policies"]) {
    if (policy["Type"] == "VxlanPort") port = policy["Settings"]["Port"] == 4789;
  }
  CHECK(port);
  // Windows' VXLAN takes VNIs from 4096 (flannel refuses lower ones too).
  const Run low = node.hnsctl({"node", "vxlan", "--subnet", "10.244.4.0/24", "--name", "other", "--vni", "1"});
  CHECK(low.exit_code == 2);
}

TEST_CASE("namespaces: create, list, delete") {
  EmulatedNode node;
  const std::string id = node.create_namespace();
  CHECK(id.size() == 36);
  CHECK(must(node.hnsctl({"namespace", "list"})).out.find(id) != std::string::npos);
  must(node.hnsctl({"namespace", "delete", id}));
  CHECK(must(node.hnsctl({"namespace", "list"})).out.find(id) == std::string::npos);
  CHECK(node.hnsctl({"namespace", "delete", id}).exit_code == 1);
}

TEST_CASE("source-vip: one address in the pods' store, the same every time, never a pod's") {
  EmulatedNode node;
  node.vxlan("10.244.3.0/24", "flannel.4096", "4096");
  const std::vector<std::string> reserve = {"source-vip", "flannel.4096", "--data-dir", node.ipam_dir(), "--endpoint"};
  const std::string vip = trimmed(must(node.hnsctl(reserve)).out);
  CHECK(vip == "10.244.3.2");
  CHECK(trimmed(must(node.hnsctl(reserve)).out) == vip);
  CHECK(node.held_addresses("flannel.4096") == std::vector<std::string>{vip});
  const auto endpoint = node.endpoint("flannel.4096_source_vip");
  REQUIRE(endpoint.has_value());
  CHECK((*endpoint)["IpConfigurations"][0]["IpAddress"] == vip);

  // A pod's host-local, on the same store, goes past it.
  const json pod = {{"cniVersion", "1.0.0"},
                    {"name", "flannel.4096"},
                    {"ipam",
                     {{"type", "host-local"},
                      {"dataDir", node.ipam_dir()},
                      {"ranges", json::array({json::array({{{"subnet", "10.244.3.0/24"}}})})}}}};
  const Run added = node.host_local(
      pod.dump(), {{"CNI_COMMAND", "ADD"}, {"CNI_CONTAINERID", "pod"}, {"CNI_NETNS", "ns"}, {"CNI_IFNAME", "eth0"}});
  INFO(added.out << added.err);
  REQUIRE(added.ok());
  CHECK(added.json()["ips"][0]["address"] == "10.244.3.3/24");

  const Run missing = node.hnsctl({"source-vip", "vxlan0", "--data-dir", node.ipam_dir()});
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("no network \"vxlan0\"") != std::string::npos);
}

TEST_CASE("caps: what this host's HNS lets wincni do, and the versions that would") {
  EmulatedNode node;
  const json current = json::parse(must(node.hnsctl({"caps", "--json"})).out);
  for (const json& row : current["Capabilities"]) CHECK_MESSAGE(row["Supported"] == true, row);
  // A 1809-era host (HNS 9.1): no HCN, no DSR.
  const Run old = node.hnsctl({"caps"}, {{"WINCNI_EMULATOR_HNS_VERSION", "9.1"}});
  INFO(old.out << old.err);
  REQUIRE(old.ok());
  CHECK(old.out.find("\nHNS 9.1") != std::string::npos);
  CHECK(old.out.find("no  DSR") != std::string::npos);
  CHECK(old.out.find("HNS 9.3-9.x, 10.2 and later has it") != std::string::npos);
  const json table = json::parse(must(node.hnsctl({"caps", "--json"}, {{"WINCNI_EMULATOR_HNS_VERSION", "10.1"}})).out);
  CHECK(table["Version"] == "10.1");
  std::map<std::string, bool> supported;
  for (const json& row : table["Capabilities"]) supported[row["Feature"]] = row["Supported"];
  CHECK(supported ==
        std::map<std::string, bool>{
            {"ApiV2", true}, {"DSR", false}, {"IPv6DualStack", false}, {"RemoteSubnet", true}, {"HostRoute", true}});
}

TEST_CASE("caps: the Windows build to the update, and updates known to break pod networking") {
  EmulatedNode node;
#ifdef _WIN32
  // hnsctl.exe reads the build Windows (here Wine) reports.
  const json table = json::parse(must(node.hnsctl({"caps", "--json"})).out);
  CHECK(table["OsBuild"].is_string());
#else
  CHECK(json::parse(must(node.hnsctl({"caps", "--json"})).out)["OsBuild"].is_null());
  // Server 2022 with July 2024's update: pod networking broken.
  const Run broken = node.hnsctl({"caps"}, {{"WINCNI_EMULATOR_OS_BUILD", "10.0.20348.2582"}});
  REQUIRE(broken.ok());
  CHECK(broken.out.rfind("Windows 10.0.20348.2582\n  KNOWN PROBLEM: ", 0) == 0);
  CHECK(broken.out.find("microsoft/Windows-Containers#516") != std::string::npos);
  const json table =
      json::parse(must(node.hnsctl({"caps", "--json"}, {{"WINCNI_EMULATOR_OS_BUILD", "10.0.20348.2700"}})).out);
  CHECK(table["OsBuild"] == "10.0.20348.2700");
  CHECK(table["OsProblems"].size() == 1);
  // October 2024's update mended it; an earlier one never had it.
  for (const char* fine : {"10.0.20348.2762", "10.0.20348.2527", "10.0.17763.6054"}) {
    CAPTURE(fine);
    const json row = json::parse(must(node.hnsctl({"caps", "--json"}, {{"WINCNI_EMULATOR_OS_BUILD", fine}})).out);
    CHECK(row["OsProblems"].empty());
  }
#endif
}

TEST_CASE("names in any script reach HNS intact (UTF-8 arguments, also on Windows)") {
  EmulatedNode node;
  const std::string name = "\xe8\x8a\x82\xe7\x82\xb9-n\xc5\x93ud";  // 节点-nœud
  must(node.hnsctl({"node", "host-gw", "--subnet", "10.244.1.0/24", "--name", name}));
  CHECK(node.networks().at(0)["Name"] == name);
  CHECK(must(node.hnsctl({"network", "show", name})).out.find("10.244.1.0/24") != std::string::npos);
}

TEST_CASE("exit codes: 0 done, 1 failed, 2 misused; each with a message") {
  EmulatedNode node;
  CHECK(trimmed(must(node.hnsctl({"--version"})).out).rfind("hnsctl (wincni ", 0) == 0);
  const Run no_args = node.hnsctl({});
  CHECK(no_args.exit_code == 2);
  CHECK(no_args.out.find("Usage:") != std::string::npos);
  const Run unknown = node.hnsctl({"network", "frobnicate"});
  CHECK(unknown.exit_code == 2);
  const Run bad_flag = node.hnsctl({"network", "list", "--no-such-flag"});
  CHECK(bad_flag.exit_code == 2);
  const Run no_subnet = node.hnsctl({"node", "host-gw"});
  CHECK(no_subnet.exit_code == 2);
  const Run absent = node.hnsctl({"network", "show", "nothere"});
  CHECK(absent.exit_code == 1);
  CHECK(absent.err.find("no network \"nothere\"") != std::string::npos);
  CHECK(must(node.hnsctl({"node", "host-gw", "--help"})).out.find("Usage:") != std::string::npos);

  // A state directory that cannot be made is a clear failure, not a crash.
  const fs::path blocker = node.path("a-file");
  std::ofstream(blocker) << "not a directory";
  const Run unusable = node.hnsctl({"network", "list"}, {{"WINCNI_EMULATOR_DIR", (blocker / "below").string()}});
  CHECK(unusable.exit_code == 1);
  CHECK_FALSE(unusable.err.empty());
}

TEST_CASE("audit and doctor on a host whose load balancers cannot be listed: the rest checked, and said so") {
  EmulatedNode node;
  must(node.hnsctl({"node", "host-gw", "--subnet", "10.244.1.0/24"}));
  // An endpoint attached to nothing: a finding that must still be made.
  hns::HnsClient client = node_client(node);
  hns::HostComputeEndpoint stray;
  stray.name = "stray";
  stray.host_compute_network = client.find_network_by_name("cbr0").value().id;
  client.create_endpoint(stray);
  const std::map<std::string, std::string> failing{
      {"WINCNI_EMULATOR_FAULTS", "EnumerateLoadBalancers:1+:fail=0x80004005"}};
  const Run audit = node.hnsctl({"audit"}, failing);
  CHECK(audit.exit_code == 1);
  CHECK_MESSAGE(audit.out.find("stray") != std::string::npos, audit.report());
  CHECK_MESSAGE(audit.out.find("note: load balancers: not checked: ") != std::string::npos, audit.report());
  fs::create_directories(node.path("cache"));
  fs::create_directories(node.path("no-configs"));
  const Run doctor =
      node.hnsctl({"doctor", "--grace", "0", "--cache-dir", node.path("cache"), "--conf-dir", node.path("no-configs"),
                   "--data-dir", node.ipam_dir(), "--flannel-dir", node.path("flannel")},
                  failing);
  CHECK(doctor.exit_code == 1);
  CHECK_MESSAGE(doctor.out.find("load balancers: not checked: ") != std::string::npos, doctor.report());
  CHECK_MESSAGE(doctor.out.find("[note]") != std::string::npos, doctor.report());
  must(node.hnsctl({"endpoint", "delete", "stray"}));
  // Nothing else wrong: the note alone fails neither.
  CHECK(node.hnsctl({"audit"}, failing).exit_code == 0);
}

}  // namespace
}  // namespace wincni::test

namespace wincni::test {
namespace {

fs::path conf_examples_dir() {
  const char* dir = std::getenv("WINCNI_CONF_EXAMPLES");
  REQUIRE_MESSAGE(dir != nullptr, "WINCNI_CONF_EXAMPLES is not set: run the tests with meson test");
  return dir;
}

// conf-examples/<name>, with flannel's subnetFile pointed at the node's.
std::string example_file(const EmulatedNode& node, const std::string& name) {
  const fs::path dir = conf_examples_dir();
  REQUIRE(fs::is_regular_file(dir / name));
  json config = json::parse(file_text(dir / name));
  if (config.contains("plugins") && config["plugins"][0].value("type", "") == "flannel") {
    config["plugins"][0]["subnetFile"] = node.path("subnet.env");
  }
  const std::string copy = node.path(name);
  std::ofstream(copy, std::ios::binary) << config.dump();
  return copy;
}

void write_subnet_env(const EmulatedNode& node, const std::string& subnet) {
  std::ofstream(node.path("subnet.env"), std::ios::binary)
      << "FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=" << subnet << "\nFLANNEL_MTU=1450\nFLANNEL_IPMASQ=true\n";
}

// What explain must leave: the node as it was, no address held.
void check_untouched(const EmulatedNode& node, size_t networks, size_t endpoints) {
  CHECK(node.networks().size() == networks);
  CHECK(node.endpoints().size() == endpoints);
  CHECK_FALSE(fs::exists(node.ipam_dir()));
  CHECK(node.audit().empty());
}

TEST_CASE("explain: every conf-example on the node its README describes would succeed, and nothing is made") {
  struct Example {
    std::string file;
    std::string node;   // host-gw, vxlan, openshift, legacy or "" (the plugin creates the network)
    std::string netns;  // "guid" for a fresh HCN namespace, else as given
    std::string plugin;
  };
  const std::vector<Example> examples = {
      {"flannel-host-gw.conflist", "host-gw", "guid", "win-bridge"},
      {"flannel-vxlan.conflist", "vxlan", "guid", "win-overlay"},
      {"flannel-rke2.conflist", "vxlan", "guid", "win-overlay"},
      {"win-bridge-containerd.conf", "host-gw", "guid", "win-bridge"},
      {"win-bridge-containerd.conflist", "host-gw", "guid", "win-bridge"},
      {"win-bridge-dockershim.conf", "host-gw", "none", "win-bridge"},
      {"win-bridge-standalone.conf", "", "none", "win-bridge"},
      {"win-bridge-dualstack.conf", "", "guid", "win-bridge"},
      {"win-bridge-legacy-wincni.conf", "legacy", "none", "win-bridge"},
      {"win-bridge-sdnbridge.conf", "host-gw", "guid", "win-bridge"},
      {"win-overlay-containerd.conf", "vxlan", "guid", "win-overlay"},
      {"win-overlay-dockershim.conf", "vxlan", "none", "win-overlay"},
      {"win-overlay-standalone.conf", "", "guid", "win-overlay"},
      {"win-overlay-openshift.conf", "openshift", "guid", "win-overlay"},
  };
  // Every file there but the README is in the list (and each listed one is
  // there: example_file), so a new example cannot be left out.
  std::set<std::string> listed;
  for (const Example& example : examples) listed.insert(example.file);
  for (const fs::directory_entry& entry : fs::directory_iterator(conf_examples_dir())) {
    const std::string file = entry.path().filename().string();
    if (file != "README.md") CHECK_MESSAGE(listed.count(file) == 1, file << " is not in the list");
  }
  for (const Example& example : examples) {
    CAPTURE(example.file);
    EmulatedNode node;
    if (example.node == "host-gw") {
      node.host_gw("10.244.1.0/24");
      write_subnet_env(node, "10.244.1.1/24");
    } else if (example.node == "vxlan") {
      node.vxlan("10.244.3.0/24", "flannel.4096", "4096");
      write_subnet_env(node, "10.244.3.1/24");
    } else if (example.node == "openshift") {
      node.vxlan("10.132.2.0/24", "OVNKubernetesHNSNetwork", "4096");
    } else if (example.node == "legacy") {
      // What the guide's start-kubelet.ps1 made: HNS's gateway .65, the host's vNIC at .66.
      node.host_gw("10.10.187.64/26", "l2bridge");
    }
    const size_t networks = node.networks().size();
    const size_t endpoints = node.endpoints().size();
    const std::string netns = example.netns == "guid" ? node.create_namespace() : example.netns;
    const Run run = node.hnsctl({"explain", example_file(node, example.file), "--netns", netns, "--json"});
    INFO(run.out << run.err);
    CHECK(run.exit_code == 0);
    const json report = run.json();
    REQUIRE(report.is_object());
    CHECK(report["plugin"] == example.plugin);
    CHECK(report["problems"].empty());
    CHECK_FALSE(report["policies"].empty());
    // Every key of every example is one a reader takes.
    for (const json& warning : report["warnings"]) {
      CHECK_MESSAGE(warning.get<std::string>().find("unknown key") == std::string::npos, warning);
    }
    check_untouched(node, networks, endpoints);
  }
}

TEST_CASE("explain: a misspelt key, flannel's or its delegate's, is a warning naming the key it is nearest to") {
  EmulatedNode node;
  node.host_gw("10.244.1.0/24");
  write_subnet_env(node, "10.244.1.1/24");
  json config = json::parse(file_text(example_file(node, "flannel-host-gw.conflist")));
  config["plugins"][0]["serivceCIDR"] = "10.96.0.0/12";
  config["plugins"][0]["delegate"]["optionalFlag"] = json::object();
  const std::string file = node.path("typo.conflist");
  std::ofstream(file, std::ios::binary) << config.dump();
  const json report = node.hnsctl({"explain", file, "--netns", node.create_namespace(), "--json"}).json();
  REQUIRE(report.is_object());
  std::vector<std::string> warnings;
  for (const json& warning : report["warnings"]) warnings.push_back(warning.get<std::string>());
  CHECK(std::count(warnings.begin(), warnings.end(),
                   "unknown key \"serivceCIDR\" is ignored (did you mean \"serviceCIDR\"?)") == 1);
  CHECK(std::count(warnings.begin(), warnings.end(),
                   "unknown key \"optionalFlag\" is ignored (did you mean \"optionalFlags\"?)") == 1);
}

TEST_CASE("explain: the API and why, the policies and where each came from") {
  EmulatedNode node;
  node.host_gw("10.244.1.0/24");
  const json report = node.hnsctl({"explain", example_file(node, "win-bridge-containerd.conf"), "--netns",
                                   node.create_namespace(), "--container", "web-1", "--json"})
                          .json();
  CHECK(report["hns"]["api"] == "HCN (v2)");
  CHECK(report["hns"]["why"] == "the config's apiVersion");
  CHECK(report["network"]["type"] == "L2Bridge");
  CHECK(report["endpoint"]["name"] == "web-1_cbr0");
  CHECK(report["ipam"]["type"] == "host-local");
  std::vector<std::string> origins;
  for (const json& entry : report["policies"]) origins.push_back(entry["from"]);
  CHECK(origins == std::vector<std::string>{"policies[0]", "policies[1]", "policies[2]", "loopbackDSR"});
  // ipMasqNetwork joins the config's OutBoundNAT exceptions.
  CHECK(report["policies"][0]["policy"]["Settings"]["Exceptions"] ==
        json{"10.96.0.0/12", "192.168.0.0/16", "10.244.0.0/16"});

  // flannel: the delegate it builds, and the policies it generates named so.
  write_subnet_env(node, "10.244.1.1/24");
  const json flannel = node.hnsctl({"explain", example_file(node, "flannel-host-gw.conflist"), "--netns",
                                    node.create_namespace(), "--json"})
                           .json();
  CHECK(flannel["flannel"]["delegate"]["type"] == "win-bridge");
  bool generated = false;
  for (const json& entry : flannel["policies"]) {
    generated = generated || entry["from"].get<std::string>().rfind("flannel's generated policies", 0) == 0;
  }
  CHECK(generated);
  // A serviceCIDR inside the pod network would route every pod as a
  // service: the problem ADD would fail on, named.
  json overlapping = json::parse(file_text(example_file(node, "flannel-host-gw.conflist")));
  overlapping["plugins"][0]["serviceCIDR"] = "10.240.0.0/12";
  std::ofstream(node.path("overlapping.conflist"), std::ios::binary) << overlapping.dump();
  const Run refused = node.hnsctl({"explain", node.path("overlapping.conflist"), "--netns", "none", "--json"});
  CHECK(refused.exit_code == 1);
  CHECK(refused.json()["problems"][0].get<std::string>().find(
            "error 7: serviceCIDR: 10.240.0.0/12 overlaps the pod network 10.244.0.0/16") != std::string::npos);
  // The text form says the same for a person.
  const Run text =
      node.hnsctl({"explain", example_file(node, "win-bridge-containerd.conf"), "--netns", node.create_namespace()});
  CHECK(text.out.find("network cbr0: L2Bridge 10.244.1.0/24") != std::string::npos);
  CHECK(text.out.find("ADD would succeed") != std::string::npos);
}

TEST_CASE("explain: the DNS search list a pod of a given namespace would get, and why") {
  EmulatedNode node;
  node.host_gw("10.244.1.0/24");
  const std::string file = example_file(node, "win-bridge-containerd.conf");
  const std::string ns = node.create_namespace();
  const json plain = node.hnsctl({"explain", file, "--netns", ns, "--json"}).json();
  CHECK(plain["dns"]["search"] == json{"svc.cluster.local"});
  CHECK(plain["dns"]["why"].get<std::string>().find("no K8S_POD_NAMESPACE") != std::string::npos);
  const json prod = node.hnsctl({"explain", file, "--netns", ns, "--pod-namespace", "prod", "--json"}).json();
  CHECK(prod["dns"]["search"] == json{"prod.svc.cluster.local", "svc.cluster.local", "cluster.local"});
  CHECK(prod["dns"]["nameservers"] == json{"10.96.0.10"});
  // The same from CNI_ARGS as containerd sends it; --pod-namespace wins over it.
  const json args = node.hnsctl({"explain", file, "--netns", ns, "--args",
                                 "IgnoreUnknown=1;K8S_POD_NAMESPACE=web;K8S_POD_NAME=x", "--json"})
                        .json();
  CHECK(args["dns"]["search"][0] == "web.svc.cluster.local");
  const Run text = node.hnsctl({"explain", file, "--netns", ns, "--args", "K8S_POD_NAMESPACE=web",
                                "--pod-namespace", "prod"});
  CHECK(text.out.find("dns: search prod.svc.cluster.local svc.cluster.local cluster.local; nameservers 10.96.0.10") !=
        std::string::npos);
}

#ifdef _WIN32
// `hnsctl explain --netns none --json` with `file` as its stdin, started as
// PowerShell and Go's os/exec start a program: a handle, and no C runtime
// descriptor table, so that hnsctl's C runtime opens its stdin in text mode
// (libuv, which starts every other run here, hands its children a table
// that marks their stdin binary). Its stdout.
std::string explain_started_plainly(const EmulatedNode& node, const std::string& file) {
  // Inherited: the node's emulator and data dirs (every other run is given
  // its environment, so the test's own may carry them).
  for (const std::string& entry : node.env().to_list()) {
    const size_t equals = entry.find('=');
    SetEnvironmentVariableA(entry.substr(0, equals).c_str(), entry.substr(equals + 1).c_str());
  }
  SECURITY_ATTRIBUTES inheritable{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  const std::string out_file = node.path("plain-start.out");
  HANDLE in = CreateFileA(file.c_str(), GENERIC_READ, FILE_SHARE_READ, &inheritable, OPEN_EXISTING, 0, nullptr);
  HANDLE out = CreateFileA(out_file.c_str(), GENERIC_WRITE, 0, &inheritable, CREATE_ALWAYS, 0, nullptr);
  REQUIRE((in != INVALID_HANDLE_VALUE && out != INVALID_HANDLE_VALUE));
  STARTUPINFOA startup{};
  startup.cb = sizeof startup;
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdInput = in;
  startup.hStdOutput = out;
  startup.hStdError = out;
  std::string command = "\"" + std::string(std::getenv("WINCNI_HNSCTL")) + "\" explain --netns none --json";
  PROCESS_INFORMATION process{};
  const bool started =
      CreateProcessA(nullptr, command.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &startup, &process);
  CloseHandle(in);
  CloseHandle(out);
  REQUIRE_MESSAGE(started, "CreateProcess failed: " << GetLastError());
  WaitForSingleObject(process.hProcess, INFINITE);
  CloseHandle(process.hThread);
  CloseHandle(process.hProcess);
  return file_text(out_file);
}
#endif

// A config as Windows PowerShell writes it reads as the plugins read it,
// from a file and from stdin: what explain says of it is what it says of
// the plain one.
TEST_CASE("explain: a config in UTF-8 with a BOM or in UTF-16LE, as a file or on stdin, reads as the plain one") {
  EmulatedNode node;
  node.host_gw("10.244.1.0/24");
  // Search domains whose UTF-16 bytes a text-mode read of stdin takes for
  // an end of file (0x1A in U+011A) and a line end (0x0D 0x0A across
  // U+0D15 U+010A): they must arrive as they are.
  json config = json::parse(file_text(example_file(node, "win-bridge-dockershim.conf")));
  config["dns"]["search"].push_back("\u011Aa.example");
  config["dns"]["search"].push_back("\u0D15\u010A.example");
  const std::string plain = config.dump();
  const std::string plain_file = node.path("plain.conf");
  std::ofstream(plain_file, std::ios::binary) << plain;
  const auto explain = [&](const std::string& file, const std::string& input) {
    std::vector<std::string> args = {"explain"};
    if (!file.empty()) args.push_back(file);
    for (const char* arg : {"--netns", "none", "--json"}) args.push_back(arg);
    return node.hnsctl(args, {}, input);
  };
  const Run expected = explain(plain_file, "");
  REQUIRE_MESSAGE(expected.ok(), expected.out << expected.err);
  CHECK(expected.json()["plugin"] == "win-bridge");
  CHECK(explain("", plain).out == expected.out);
  const std::vector<std::pair<std::string, std::string>> encodings = {{"UTF-8 with a BOM", utf8_with_bom(plain)},
                                                                      {"UTF-16LE", utf16le_with_bom(plain)}};
  for (const auto& row : encodings) {
    // Named copies, not structured bindings: clang 14 cannot capture those.
    const auto& [encoding, bytes] = row;
    const std::string& written_as = encoding;
    CAPTURE(written_as);
    std::ofstream(node.path("encoded.conf"), std::ios::binary) << bytes;
    const Run from_file = explain(node.path("encoded.conf"), "");
    CHECK_MESSAGE(from_file.ok(), from_file.err);
    CHECK(from_file.out == expected.out);
    const Run from_stdin = explain("", bytes);
    CHECK_MESSAGE(from_stdin.ok(), from_stdin.err);
    CHECK(from_stdin.out == expected.out);
#ifdef _WIN32
    // Its line ends are CRLF (text mode): the JSON is compared.
    CHECK(json::parse(explain_started_plainly(node, node.path("encoded.conf")), nullptr, false) == expected.json());
#endif
  }
  // UTF-16 cut in half is named as such, not as JSON that does not parse.
  std::ofstream(node.path("cut.conf"), std::ios::binary) << utf16le_with_bom(plain).substr(0, 101);
  const Run cut = explain(node.path("cut.conf"), "");
  CHECK(cut.exit_code == 1);
  CHECK_MESSAGE(cut.err.find("the config starts with a UTF-16 byte-order mark but has an odd number of bytes") !=
                    std::string::npos,
                cut.err);
}

// The runtime runs the binary `type` names, so a config names our plugins
// by the names they are installed under: Microsoft's, the legacy wincni's,
// and any of them with the extension Windows adds.
TEST_CASE("explain: the names configs give the plugins, with or without .exe") {
  EmulatedNode node;
  node.host_gw("10.244.1.0/24");
  json config = json::parse(file_text(example_file(node, "win-bridge-dockershim.conf")));
  const auto plugin_for = [&](const std::string& type) {
    config["type"] = type;
    std::ofstream(node.path("named.conf"), std::ios::binary) << config.dump();
    // The report names the plugin even where ADD would fail (win-overlay on
    // this L2Bridge network).
    const Run run = node.hnsctl({"explain", node.path("named.conf"), "--netns", "none", "--json"});
    const json report = run.json();
    return report.is_object() ? report.value("plugin", "") : run.err;
  };
  for (const char* type : {"win-bridge.exe", "sdnbridge.EXE", "L2Bridge", "wincni.exe", "wincni"}) {
    CHECK_MESSAGE(plugin_for(type) == "win-bridge", type);
  }
  CHECK(plugin_for("sdnoverlay.exe") == "win-overlay");
  CHECK(plugin_for(".exe").find("not one of wincni's HNS plugins") != std::string::npos);
}

TEST_CASE("explain: what would make ADD fail, and what the config asks that nothing will do") {
  EmulatedNode node;
  SUBCASE("the network is missing and the plugin does not create it") {
    const Run run =
        node.hnsctl({"explain", example_file(node, "win-overlay-containerd.conf"), "--netns", node.create_namespace()});
    CHECK(run.exit_code == 1);
    CHECK(run.out.find("missing; ADD waits 10 s") != std::string::npos);
    CHECK(run.out.find("PROBLEM: check that flanneld") != std::string::npos);
    check_untouched(node, 0, 0);
  }
  SUBCASE("loopbackDSR on a host whose HNS has no DSR") {
    node.host_gw("10.244.1.0/24");
    json config = json::parse(file_text(example_file(node, "win-bridge-dockershim.conf")));
    config["loopbackDSR"] = true;
    std::ofstream(node.path("dsr.conf")) << config.dump();
    const Run run =
        node.hnsctl({"explain", node.path("dsr.conf"), "--netns", "none"}, {{"WINCNI_EMULATOR_HNS_VERSION", "9.1"}});
    INFO(run.out << run.err);
    CHECK(run.exit_code == 1);
    CHECK(run.out.find("PROBLEM: loopbackDSR needs HNS with DSR support") != std::string::npos);
  }
  SUBCASE("a v1 name inside v2 settings (OpenShift's template) is a warning") {
    node.vxlan("10.132.2.0/24", "OVNKubernetesHNSNetwork", "4096");
    const json report = node.hnsctl({"explain", example_file(node, "win-overlay-openshift.conf"), "--netns",
                                     node.create_namespace(), "--json"})
                            .json();
    bool named = false;
    for (const json& warning : report["warnings"])
      named = named || warning.get<std::string>().find("ExceptionList") != std::string::npos;
    CHECK_MESSAGE(named, report["warnings"]);
  }
  SUBCASE("capabilities the config does not declare") {
    node.host_gw("10.244.1.0/24");
    json config = json::parse(R"({"cniVersion":"1.0.0","name":"cbr0","type":"win-bridge",
                                  "ipam":{"type":"host-local","subnet":"10.244.1.0/24"}})");
    std::ofstream(node.path("bare.conf")) << config.dump();
    const json report =
        node.hnsctl({"explain", node.path("bare.conf"), "--netns", node.create_namespace(), "--json"}).json();
    CHECK(report["warnings"].size() == 2);
    CHECK(report["warnings"][0].get<std::string>().find("portMappings capability") != std::string::npos);
  }
  SUBCASE("flannel before flanneld has written subnet.env") {
    node.vxlan("10.244.3.0/24", "flannel.4096", "4096");
    const Run run = node.hnsctl({"explain", example_file(node, "flannel-vxlan.conflist")});
    CHECK(run.exit_code == 1);
    CHECK(run.out.find("does not exist (yet)") != std::string::npos);
  }
  SUBCASE("a config that is not JSON, and a plugin that is not ours") {
    std::ofstream(node.path("broken.conf")) << "{\"name\": ";
    CHECK(node.hnsctl({"explain", node.path("broken.conf")}).exit_code == 1);
    std::ofstream(node.path("calico.conf")) << R"({"cniVersion":"1.0.0","name":"x","type":"calico"})";
    const Run other = node.hnsctl({"explain", node.path("calico.conf")});
    CHECK(other.exit_code == 1);
    CHECK(other.err.find("not one of wincni's HNS plugins") != std::string::npos);
  }
}

}  // namespace
}  // namespace wincni::test

namespace wincni::test {
namespace {

// The entries of a zip whose entries are stored (as collect writes them),
// each checked against its CRC-32: a reader of our own, so that the suite
// reads the bundle under Wine too (natively, Python's zipfile judges it as
// well).
std::map<std::string, std::string> zip_entries(const std::string& bytes) {
  const auto u16 = [&bytes](std::size_t at) {
    REQUIRE(at + 2 <= bytes.size());
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at]) |
                                      (static_cast<unsigned char>(bytes[at + 1]) << 8));
  };
  const auto u32 = [&u16](std::size_t at) { return u16(at) | (u16(at + 2) << 16); };
  const auto crc_of = [](std::string_view data) {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (unsigned char byte : data) {
      crc ^= byte;
      for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
  };
  REQUIRE(bytes.size() >= 22);
  const std::size_t end = bytes.size() - 22;  // no archive comment
  REQUIRE(u32(end) == 0x06054b50u);
  std::map<std::string, std::string> entries;
  std::size_t at = u32(end + 16);
  for (std::uint32_t i = 0; i < u16(end + 10); ++i) {
    REQUIRE(u32(at) == 0x02014b50u);
    const std::uint32_t crc = u32(at + 16);
    const std::uint32_t size = u32(at + 24);
    const std::string name = bytes.substr(at + 46, u16(at + 28));
    const std::size_t local = u32(at + 42);
    REQUIRE(u32(local) == 0x04034b50u);
    CHECK(u16(local + 8) == 0);  // stored
    const std::string data = bytes.substr(local + 30 + u16(local + 26) + u16(local + 28), size);
    CHECK_MESSAGE(crc_of(data) == crc, name);
    entries[name] = data;
    at += 46 + u16(at + 28) + u16(at + 30) + u16(at + 32);
  }
  return entries;
}

// A node with a pod's files where collect looks, and secrets planted where
// operators' nodes have them: a kubeconfig beside the configs (calico's), a
// token in a config, a password in the runtime's cache, a bearer token and a
// private key quoted in the log, a registry's credentials in containerd's
// config.
TEST_CASE("collect: one zip with HNS, configs, caches, logs and versions; no secret in it, nothing changed") {
  EmulatedNode node;
  node.host_gw("10.244.1.0/24");
  const fs::path conf = node.path("net.d");
  fs::create_directories(conf);
  std::ofstream(conf / "10-flannel.conflist")
      << R"({"cniVersion":"1.0.0","name":"cbr0","plugins":[{"type":"flannel","delegate":{"type":"win-bridge"},)"
      << R"("kubernetes":{"kubeconfig":"C:\\etc\\cni\\net.d\\calico-kubeconfig","token":"SECRET-1"}}]})";
  std::ofstream(conf / "calico-kubeconfig") << "users:\n- name: calico\n  user:\n    token: SECRET-2\n";
  fs::create_directories(node.runtime_cache_dir());
  std::ofstream(fs::path(node.runtime_cache_dir()) / "cbr0-pod1-eth0")
      // libcni keeps the config base64-encoded; this one holds {"token":"SECRET-8"}.
      << R"({"kind":"cniCacheV1","containerId":"pod1","networkName":"cbr0","config":")"
      << "eyJjbmlWZXJzaW9uIjoiMS4wLjAiLCJuYW1lIjoiY2JyMCIsInR5cGUiOiJmbGFubmVsIiwia3ViZXJuZXRlcyI6eyJ0b2tlbiI6IlNFQ1JFV"
         "C04In19"
      << R"(",)"
      << R"("result":{"ips":[{"address":"10.244.1.5/24"}]},"etcd":{"Password":"SECRET-3"}})";
  fs::create_directories(fs::path(node.ipam_dir()) / "cbr0");
  std::ofstream(fs::path(node.ipam_dir()) / "cbr0" / "10.244.1.5", std::ios::binary) << "pod1\neth0";
  // A cache file nested deeper than any entry: taken as it is, never parsed into a stack overflow.
  std::ofstream(fs::path(node.runtime_cache_dir()) / "deep") << std::string(200000, '[');
  std::ofstream(node.path("subnet.env")) << "FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=10.244.1.1/24\n";
  std::ofstream(node.path("wincni.log"))
      << "2026-11-28T23:00:00Z info  win-bridge[1] ADD pod1: done\n"
      << "2026-11-28T23:00:01Z debug flannel[2] Authorization: Bearer SECRET-4 sent\n"
      << "-----BEGIN RSA PRIVATE KEY-----\nSECRET-5\n-----END RSA PRIVATE KEY-----\n";
  std::ofstream(node.path("config.toml"))
      << "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\".registry.configs.\"r.example\".auth]\n"
      << "  auth = \"SECRET-6\"\n  password = 'SECRET-7'\n  username = \"ops\"\n";
  const auto networks_before = node.networks();
  const auto endpoints_before = node.endpoints();

  const std::string out = node.path("bundle.zip");
  const Run collected = must(node.hnsctl({"collect", "--out", out, "--conf-dir", conf.string(), "--cache-dir",
                                          node.runtime_cache_dir(), "--data-dir", node.ipam_dir(), "--flannel-dir",
                                          node.scratch_dir(), "--subnet-file", node.path("subnet.env"), "--log-file",
                                          node.path("wincni.log"), "--containerd-config", node.path("config.toml")}));
  CHECK(collected.out.starts_with("wrote " + out + ": "));
  const std::string bytes = file_text(out);
  CHECK(bytes.find("SECRET-") == std::string::npos);

  const std::map<std::string, std::string> entries = zip_entries(bytes);
  for (const char* name : {"README.txt",
                           "hnsctl/version.txt",
                           "hnsctl/caps.txt",
                           "hnsctl/networks.txt",
                           "hnsctl/networks-v1.txt",
                           "hnsctl/endpoints.txt",
                           "hnsctl/endpoints-v1.txt",
                           "hnsctl/namespaces.txt",
                           "hnsctl/load-balancers.txt",
                           "hnsctl/audit.txt",
                           "hnsctl/doctor.txt",
                           "hns-v1/policylists.txt",
                           "cni/conf/10-flannel.conflist",
                           "cni/results/cbr0-pod1-eth0",
                           "host-local/cbr0/10.244.1.5",
                           "flannel/subnet.env",
                           "logs/wincni.log",
                           "containerd/config.toml",
                           "binaries.txt",
                           "cni/results/deep"}) {
    CHECK_MESSAGE(entries.count(name) == 1, name);
  }
  CHECK(entries.count("cni/conf/calico-kubeconfig") == 0);
  const std::string& readme = entries.at("README.txt");
  CHECK(readme.find("calico-kubeconfig: not a kind of file collect takes") != std::string::npos);
  CHECK_MESSAGE(readme.find("7 values that looked like secrets were replaced") != std::string::npos, readme);
  // The cached config is opened for the redaction, and for reading.
  const nlohmann::json cached = nlohmann::json::parse(entries.at("cni/results/cbr0-pod1-eth0"));
  CHECK(cached["config"]["kubernetes"]["token"] == "<redacted>");
  CHECK(cached["config"]["type"] == "flannel");
  CHECK(entries.at("hnsctl/networks.txt").find("\"cbr0\"") != std::string::npos);
  CHECK(entries.at("hnsctl/endpoints-v1.txt").find("cbr0_ep") != std::string::npos);
  // doctor's own findings: the config's subnet.env, containerd's folders.
  CHECK_MESSAGE(entries.at("hnsctl/doctor.txt").find("\"Kind\": \"containerd\"") != std::string::npos,
                entries.at("hnsctl/doctor.txt"));
  CHECK(entries.at("host-local/cbr0/10.244.1.5") == "pod1\neth0");
  CHECK(entries.at("flannel/subnet.env").find("FLANNEL_SUBNET=10.244.1.1/24") != std::string::npos);
  CHECK(entries.at("logs/wincni.log").find("ADD pod1: done") != std::string::npos);
  CHECK(entries.at("containerd/config.toml").find("username = \"ops\"") != std::string::npos);
  CHECK(entries.at("binaries.txt").find("--version\nhnsctl (wincni ") != std::string::npos);
  // A configuration JSON keeps its shape: the token's value alone is gone.
  CHECK(nlohmann::json::parse(entries.at("cni/conf/10-flannel.conflist"))["plugins"][0]["kubernetes"]["token"] ==
        "<redacted>");

  // Never over a file that is there (--out could name a config).
  const Run again = node.hnsctl({"collect", "--out", out, "--conf-dir", conf.string()});
  CHECK(again.exit_code == 1);
  CHECK(again.err.find("exists: collect never writes over a file") != std::string::npos);
  CHECK(file_text(out) == bytes);

  // Nothing on the node changed.
  CHECK(node.networks() == networks_before);
  CHECK(node.endpoints() == endpoints_before);
  CHECK(fs::exists(fs::path(node.ipam_dir()) / "cbr0" / "10.244.1.5"));
  CHECK(fs::exists(fs::path(node.runtime_cache_dir()) / "cbr0-pod1-eth0"));
#ifndef _WIN32
  // Another reader's word on the format.
  const int zipfile = std::system(("python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); "
                                   "sys.exit(z.testzip() is not None or len(z.namelist()) < 19)' '" +
                                   out + "'")
                                      .c_str());
  CHECK(zipfile == 0);
#endif
}

}  // namespace
}  // namespace wincni::test
