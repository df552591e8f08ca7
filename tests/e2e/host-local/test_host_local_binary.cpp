// host-local end to end: the binary run as a runtime or a plugin runs it,
// its store on disk, the source-VIP invocation the node scripts make, and
// many processes at once sharing one store. The same program runs natively
// and, built for Windows, under Wine against host-local.exe (LockFileEx,
// '_' for ':' in IPv6 file names, CRLF in the owner files, UTF-16 stdin).

#include <doctest/doctest.h>

#include <set>
#include <thread>

#include "emulated_node.hpp"
#include "file_text.hpp"
#include "powershell_text.hpp"

namespace wincni::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string pods_config(const EmulatedNode& node, const std::string& version, json ranges) {
  return json{{"cniVersion", version},
              {"name", "pods"},
              {"type", "host-local"},
              {"ipam",
               {{"type", "host-local"},
                {"dataDir", node.ipam_dir()},
                {"ranges", ranges},
                {"routes", json::array({{{"dst", "0.0.0.0/0"}}})}}}}
      .dump();
}

json v4_ranges(const std::string& subnet = "10.10.0.0/24") {
  return json::array({json::array({{{"subnet", subnet}}})});
}

// The name host-local gives an address's file on this OS.
std::string address_file_name(std::string address) {
#ifdef _WIN32
  std::replace(address.begin(), address.end(), ':', '_');
#endif
  return address;
}

TEST_CASE("ADD, CHECK and DEL through the binary, and the store they leave") {
  EmulatedNode node;
  const std::string config = pods_config(node, "1.0.0", v4_ranges());
  const json result = node.add("c1", "ns1", config);
  CHECK(result["ips"] == json::array({{{"address", "10.10.0.2/24"}, {"gateway", "10.10.0.1"}}}));
  CHECK(result["routes"] == json::array({{{"dst", "0.0.0.0/0"}}}));
  CHECK(node.held_addresses("pods") == std::vector<std::string>{"10.10.0.2"});
  // The reference's format, CRLF on every OS, no final newline.
  CHECK(file_text(fs::path(node.ipam_dir()) / "pods" / "10.10.0.2") == "c1\r\neth0");

  json with_prev = json::parse(config);
  with_prev["prevResult"] = result;
  CHECK(node.plugin({"CHECK", "c1", "ns1", with_prev.dump()}).ok());
  const Run other = node.plugin({"CHECK", "c2", "ns2", with_prev.dump()});
  CHECK(other.code() == 112);

  node.del("c1", "ns1", config);
  CHECK(node.held_addresses("pods").empty());
  node.del("c1", "ns1", config);  // a repeated DEL succeeds
}

TEST_CASE("every CNI version gets its result shape") {
  EmulatedNode node;
  const json v020 = node.add("a", "ns", pods_config(node, "0.2.0", v4_ranges()));
  CHECK(v020["ip4"]["ip"] == "10.10.0.2/24");
  const json v040 = node.add("b", "ns", pods_config(node, "0.4.0", v4_ranges()));
  CHECK(v040["ips"][0] == json{{"version", "4"}, {"address", "10.10.0.3/24"}, {"gateway", "10.10.0.1"}});
  const json v110 = node.add("c", "ns", pods_config(node, "1.1.0", v4_ranges()));
  CHECK(v110["ips"][0] == json{{"address", "10.10.0.4/24"}, {"gateway", "10.10.0.1"}});
  CHECK(v110["cniVersion"] == "1.1.0");
}

TEST_CASE("dual stack: an address per family, IPv6 files named as the OS allows") {
  EmulatedNode node;
  const json ranges =
      json::array({json::array({{{"subnet", "10.10.0.0/24"}}}), json::array({{{"subnet", "fd00:10::/64"}}})});
  const std::string config = pods_config(node, "1.0.0", ranges);
  const json result = node.add("c1", "ns1", config);
  REQUIRE(result["ips"].size() == 2);
  CHECK(result["ips"][1]["address"] == "fd00:10::2/64");
  const auto held = node.held_addresses("pods");
  CHECK(std::set<std::string>(held.begin(), held.end()) ==
        std::set<std::string>{"10.10.0.2", address_file_name("fd00:10::2")});
  // A second ADD of the same attachment is refused (the duplicate check
  // reads the IPv6 file name back, '_' and all).
  CHECK(node.plugin({"ADD", "c1", "ns1", config}).code() == 111);
  node.del("c1", "ns1", config);
  CHECK(node.held_addresses("pods").empty());
}

TEST_CASE("the source-VIP invocation of the node scripts, in UTF-8 with a BOM and in UTF-16") {
  EmulatedNode node;
  // What kube-proxy's start scripts pipe in (PowerShell writes a BOM, or
  // UTF-16 with `>`), with the dummy environment they set.
  const std::string request =
      json{{"cniVersion", "0.2.0"},
           {"name", "flannel.4096"},
           {"ipam", {{"type", "host-local"}, {"ranges", v4_ranges("10.244.3.0/24")}, {"dataDir", node.ipam_dir()}}}}
          .dump();
  const std::map<std::string, std::string> dummy = {
      {"CNI_COMMAND", "ADD"}, {"CNI_CONTAINERID", "kube-proxy"}, {"CNI_NETNS", "dummy"}, {"CNI_IFNAME", "source-vip"}};
  const Run with_bom = node.host_local(utf8_with_bom(request), dummy);
  INFO(with_bom.out << with_bom.err);
  REQUIRE(with_bom.ok());
  CHECK(with_bom.json()["ip4"]["ip"] == "10.244.3.2/24");

  std::map<std::string, std::string> del = dummy;
  del["CNI_COMMAND"] = "DEL";
  const Run released = node.host_local(utf16le_with_bom(request), del);
  INFO(released.out << released.err);
  CHECK(released.ok());
  CHECK(node.held_addresses("flannel.4096").empty());
}

TEST_CASE("30 processes at once share one store: 30 different addresses, then 30 DELs leave nothing") {
  EmulatedNode node;
  const std::string config = pods_config(node, "1.0.0", v4_ranges());
  constexpr int kPods = 30;
  std::vector<Run> adds(kPods);
  {
    std::vector<std::thread> threads;
    for (int i = 0; i < kPods; ++i) {
      threads.emplace_back([&, i] { adds[i] = node.plugin({"ADD", "pod" + std::to_string(i), "ns", config}); });
    }
    for (auto& thread : threads) thread.join();
  }
  std::set<std::string> addresses;
  for (int i = 0; i < kPods; ++i) {
    CHECK_MESSAGE(adds[i].ok(), "pod" << i << ": " << adds[i].out << adds[i].err);
    if (adds[i].ok()) addresses.insert(adds[i].json()["ips"][0]["address"].get<std::string>());
  }
  CHECK(addresses.size() == kPods);
  CHECK(node.held_addresses("pods").size() == kPods);

  std::vector<Run> dels(kPods);
  {
    std::vector<std::thread> threads;
    for (int i = 0; i < kPods; ++i) {
      threads.emplace_back([&, i] { dels[i] = node.plugin({"DEL", "pod" + std::to_string(i), "ns", config}); });
    }
    for (auto& thread : threads) thread.join();
  }
  for (int i = 0; i < kPods; ++i) CHECK_MESSAGE(dels[i].ok(), "pod" << i << ": " << dels[i].out);
  CHECK(node.held_addresses("pods").empty());
}

TEST_CASE("a full range is error 110 naming it, and takes nothing") {
  EmulatedNode node;
  // /30: .1 is the gateway, .2 the only address.
  const std::string config = pods_config(node, "1.1.0", v4_ranges("10.10.0.0/30"));
  node.add("first", "ns", config);
  const Run second = node.plugin({"ADD", "second", "ns", config});
  CHECK(second.code() == 110);
  CHECK(second.msg().find("no IP addresses available in range set: 10.10.0.1-10.10.0.2") != std::string::npos);
  CHECK(node.held_addresses("pods") == std::vector<std::string>{"10.10.0.2"});
  const Run status = node.plugin({"STATUS", "", "", config});
  CHECK(status.code() == 50);
  CHECK(status.msg().find("10.10.0.1-10.10.0.2") != std::string::npos);
}

TEST_CASE("GC releases what no valid attachment owns; STATUS is ready while there is room") {
  EmulatedNode node;
  const std::string config = pods_config(node, "1.1.0", v4_ranges());
  node.add("keep", "ns", config);
  node.add("drop", "ns", config);
  CHECK(node.plugin({"STATUS", "", "", config}).ok());
  json gc = json::parse(config);
  gc["cni.dev/valid-attachments"] = json::array({{{"containerID", "keep"}, {"ifname", "eth0"}}});
  const Run run = node.plugin({"GC", "", "", gc.dump()});
  INFO(run.out << run.err);
  CHECK(run.ok());
  CHECK(node.held_addresses("pods") == std::vector<std::string>{"10.10.0.2"});
}

TEST_CASE("bad input: a clear error on stdout, a non-zero exit, nothing on disk") {
  EmulatedNode node;
  const Run not_json = node.plugin({"ADD", "c1", "ns1", "{\"cniVersion\": "});
  CHECK(not_json.code() == 6);
  const Run bad_subnet = node.plugin({"ADD", "c1", "ns1", pods_config(node, "1.0.0", v4_ranges("10.10.0.0/33"))});
  CHECK(bad_subnet.code() == 7);
  CHECK_FALSE(bad_subnet.ok());
  const Run no_container = node.plugin({"ADD", "", "ns1", pods_config(node, "1.0.0", v4_ranges())});
  CHECK(no_container.code() == 4);
  CHECK(node.held_addresses("pods").empty());
}

}  // namespace
}  // namespace wincni::test
