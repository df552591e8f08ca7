// host-local's commands end to end through the skel, against a temporary
// data directory: the reference's scenarios (host_local_test.go) for every
// CNI version, and CHECK, GC, STATUS, rollback and crash leftovers.

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host_local_commands.hpp"
#include "file_names.hpp"
#include "folder_access.hpp"
#include "host_local_plugin.hpp"
#include "support.hpp"
#include "wincni/os/file_lock.hpp"
#include "wincni/cni/version.hpp"

using hostlocal_test::ip;
using hostlocal_test::path_text;
using hostlocal_test::read_text;
using hostlocal_test::TempDir;
using hostlocal_test::write_text;
using nlohmann::json;
namespace fs = std::filesystem;
namespace cni = wincni::cni;
namespace os = wincni::os;
namespace hl = wincni::hostlocal;

namespace {

struct Outcome {
  int exit_code;
  json out;  // null when nothing was printed
  int code() const { return out.is_object() && out.contains("code") ? out["code"].get<int>() : 0; }
  std::string msg() const { return out.is_object() && out.contains("msg") ? out["msg"].get<std::string>() : ""; }
};

// A node's view of one data directory: runs commands as a runtime would.
class Node {
 public:
  std::string data_dir() const { return path_text(dir_.path() / "data"); }
  fs::path network_dir(const std::string& network = "mynet") const { return dir_.path() / "data" / network; }
  fs::path file(const std::string& address, const std::string& network = "mynet") const {
    return network_dir(network) / hl::ip_file_name(ip(address), hl::platform_escapes_colons());
  }
  const TempDir& dir() const { return dir_; }
  // A variable every later run() gets too.
  void set_env(const std::string& name, const std::string& value) { extra_env_[name] = value; }

  Outcome run(const std::string& command, const std::string& config, const std::string& container_id = "dummy",
              const std::string& ifname = "eth0", const std::string& cni_args = "") const {
    cni::Environment env;
    env.set("CNI_COMMAND", command);
    env.set("CNI_CONTAINERID", container_id);
    env.set("CNI_NETNS", "/some/where");
    env.set("CNI_IFNAME", ifname);
    env.set("CNI_PATH", "/opt/cni/bin");
    if (!cni_args.empty()) env.set("CNI_ARGS", cni_args);
    for (const auto& [name, value] : extra_env_) env.set(name, value);
    os::StringSource in(config);
    os::StringSink out, err;
    const int rc = cni::run_plugin(hl::host_local_plugin(), {"host-local"}, env, in, out, err);
    return Outcome{rc, out.text.empty() ? json() : json::parse(out.text)};
  }

 private:
  TempDir dir_;
  std::map<std::string, std::string> extra_env_;
};

// The reference's dual-stack test config.
std::string dual_stack_config(const Node& node, const std::string& version) {
  return json{{"cniVersion", version},
              {"name", "mynet"},
              {"type", "ipvlan"},
              {"master", "foo0"},
              {"ipam",
               {{"type", "host-local"},
                {"dataDir", node.data_dir()},
                {"resolvConf", path_text(node.dir().path() / "resolv.conf")},
                {"ranges", json::array({json::array({{{"subnet", "10.1.2.0/24"}}, {{"subnet", "10.2.2.0/24"}}}),
                                        json::array({{{"subnet", "2001:db8:1::0/64"}}})})},
                {"routes", json::array({{{"dst", "0.0.0.0/0"}},
                                        {{"dst", "::/0"}},
                                        {{"dst", "192.168.0.0/16"}, {"gw", "1.1.1.1"}},
                                        {{"dst", "2001:db8:2::0/64"}, {"gw", "2001:db8:3::1"}}})}}}}
      .dump();
}

std::string config_with(const Node& node, json ipam, const std::string& version = "1.0.0",
                        json extra = json::object()) {
  ipam["type"] = "host-local";
  ipam["dataDir"] = node.data_dir();
  json config = {{"cniVersion", version}, {"name", "mynet"}, {"type", "ipvlan"}, {"ipam", ipam}};
  config.update(extra);
  return config.dump();
}

json ranges(std::initializer_list<std::vector<std::string>> sets) {
  json out = json::array();
  for (const auto& set : sets) {
    json ranges_of_set = json::array();
    for (const auto& subnet : set) ranges_of_set.push_back({{"subnet", subnet}});
    out.push_back(ranges_of_set);
  }
  return out;
}

std::vector<std::string> addresses(const Outcome& o, const std::string& version) {
  std::vector<std::string> out;
  for (const auto& c : cni::Result::decode(o.out, version).ips) out.push_back(c.address.str());
  return out;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("dual stack ADD and DEL, in every CNI version") {
  for (const auto& version : cni::known_versions()) {
    CAPTURE(version);
    Node node;
    write_text(node.dir().path() / "resolv.conf", "nameserver 192.0.2.3");
    const std::string config = dual_stack_config(node, version);

    const Outcome add = node.run("ADD", config);
    REQUIRE(add.exit_code == 0);
    CHECK(add.out["cniVersion"] == version);
    const cni::Result result = cni::Result::decode(add.out, version);
    REQUIRE(result.ips.size() == 2);
    CHECK(result.ips[0].address.str() == "10.1.2.2/24");
    CHECK(result.ips[0].gateway == ip("10.1.2.1"));
    CHECK(result.ips[1].address.str() == "2001:db8:1::2/64");
    CHECK(result.ips[1].gateway == ip("2001:db8:1::1"));
    CHECK(result.dns.nameservers == Strings{"192.0.2.3"});
    if (cni::version_at_least(version, "0.3.0")) {
      CHECK(result.routes.size() == 4);
      CHECK(result.interfaces.empty());
    }

    CHECK(read_text(node.file("10.1.2.2")) == "dummy\r\neth0");
    CHECK(read_text(node.file("2001:db8:1::2")) == "dummy\r\neth0");
    CHECK(read_text(node.network_dir() / "last_reserved_ip.0") == "10.1.2.2");
    CHECK(read_text(node.network_dir() / "last_reserved_ip.1") == "2001:db8:1::2");

    const Outcome del = node.run("DEL", config);
    CHECK(del.exit_code == 0);
    CHECK(del.out.is_null());
    CHECK_FALSE(fs::exists(node.file("10.1.2.2")));
    CHECK_FALSE(fs::exists(node.file("2001:db8:1::2")));
    CHECK(fs::exists(node.network_dir() / "lock"));
  }
}

TEST_CASE("one container, two interfaces on two networks: DEL releases only its own") {
  Node node;
  json conf0 = json::parse(config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}})}}));
  conf0["name"] = "mynet0";
  json conf1 = json::parse(config_with(node, {{"ranges", ranges({{"10.2.2.0/24"}})}}));
  conf1["name"] = "mynet1";
  REQUIRE(node.run("ADD", conf0.dump(), "dummy", "eth0").exit_code == 0);
  REQUIRE(node.run("ADD", conf1.dump(), "dummy", "eth1").exit_code == 0);
  CHECK(read_text(node.file("10.1.2.2", "mynet0")) == "dummy\r\neth0");
  CHECK(read_text(node.file("10.2.2.2", "mynet1")) == "dummy\r\neth1");
  CHECK(node.run("DEL", conf0.dump(), "dummy", "eth0").exit_code == 0);
  CHECK_FALSE(fs::exists(node.file("10.1.2.2", "mynet0")));
  CHECK(read_text(node.file("10.2.2.2", "mynet1")) == "dummy\r\neth1");
  CHECK(node.run("DEL", conf1.dump(), "dummy", "eth1").exit_code == 0);
  CHECK_FALSE(fs::exists(node.file("10.2.2.2", "mynet1")));
}

TEST_CASE("a repeated ADD for one attachment fails; other containers go on round robin") {
  Node node;
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}})}}, "0.4.0");
  CHECK(addresses(node.run("ADD", config, "dummy"), "0.4.0") == Strings{"10.1.2.2/24"});
  const Outcome again = node.run("ADD", config, "dummy");
  CHECK(again.exit_code == 1);
  CHECK(again.code() == cni::kDuplicateAllocation);
  CHECK(again.msg() ==
        "failed to allocate for range 0: 10.1.2.2 has been allocated to dummy, duplicate allocation is not allowed");
  CHECK(addresses(node.run("ADD", config, "dummy1"), "0.4.0") == Strings{"10.1.2.3/24"});
  CHECK(node.run("ADD", config, "dummy").exit_code == 1);
  CHECK(node.run("DEL", config, "dummy").exit_code == 0);
  CHECK_FALSE(fs::exists(node.file("10.1.2.2")));
  CHECK(node.run("DEL", config, "dummy1").exit_code == 0);
  // DEL is idempotent, and an unknown container is not an error.
  CHECK(node.run("DEL", config, "dummy1").exit_code == 0);
  CHECK(node.run("DEL", config, "never-seen").exit_code == 0);
}

TEST_CASE("DEL of a network that never allocated creates nothing") {
  Node node;
  CHECK(node.run("DEL", config_with(node, {{"subnet", "10.1.2.0/24"}}, "0.3.1")).exit_code == 0);
  CHECK_FALSE(fs::exists(node.network_dir()));
}

TEST_CASE("DEL releases a legacy bare-ID reservation") {
  Node node;
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}})}});
  REQUIRE(node.run("ADD", config).exit_code == 0);
  write_text(node.file("10.1.2.2"), "dummy");
  CHECK(node.run("DEL", config).exit_code == 0);
  CHECK_FALSE(fs::exists(node.file("10.1.2.2")));
}

TEST_CASE("a legacy bare-ID file stays while the container holds a current one (the reference's rule)") {
  Node node;
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}})}});
  REQUIRE(node.run("ADD", config).exit_code == 0);
  write_text(node.file("10.1.2.50"), "dummy");
  CHECK(node.run("DEL", config).exit_code == 0);
  CHECK_FALSE(fs::exists(node.file("10.1.2.2")));
  CHECK(fs::exists(node.file("10.1.2.50")));
  CHECK(node.run("DEL", config).exit_code == 0);
  CHECK_FALSE(fs::exists(node.file("10.1.2.50")));
}

TEST_CASE("whitespace around the container ID is trimmed in the file") {
  // The skel refuses such IDs; the handlers still trim as the reference does.
  Node node;
  const std::string text = config_with(node, {{"subnet", "10.1.2.0/24"}});
  cni::CommandContext ctx;
  ctx.command = "ADD";
  ctx.container_id = "   dummy\n ";
  ctx.ifname = "eth0";
  ctx.config = cni::NetConf::parse(text);
  const cni::Result result = hl::cmd_add(ctx);
  REQUIRE(result.ips.size() == 1);
  CHECK(read_text(node.file(result.ips[0].address.address().str())) == "dummy\r\neth0");
  hl::cmd_del(ctx);
  CHECK_FALSE(fs::exists(node.file(result.ips[0].address.address().str())));
}

TEST_CASE("requested addresses from args, CNI_ARGS and runtimeConfig are honoured") {
  Node node;
  const json args = {{"args", {{"cni", {{"ips", {"10.1.2.88", "10.1.3.77"}}}}}}};
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}, {"10.1.3.0/24"}})}}, "1.0.0", args);
  CHECK(addresses(node.run("ADD", config), "1.0.0") == Strings{"10.1.2.88/24", "10.1.3.77/24"});

  const std::string plain = config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}})}});
  CHECK(addresses(node.run("ADD", plain, "c2", "eth0", "IgnoreUnknown=1;IP=10.1.2.99;K8S_POD_NAME=p"), "1.0.0") ==
        Strings{"10.1.2.99/24"});
  const json runtime = {{"runtimeConfig", {{"ips", {"10.1.2.100/24"}}}}};
  CHECK(addresses(node.run("ADD", config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}})}}, "1.0.0", runtime), "c3"),
                  "1.0.0") == Strings{"10.1.2.100/24"});
  // A requested address is honoured even for an attachment that holds one
  // already: the reference skips its duplicate check for requested addresses.
  CHECK(node.run("ADD", config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}})}}, "1.0.0", runtime), "c3").code() ==
        cni::kNoAddressAvailable);
}

TEST_CASE("a requested address no range set holds fails the ADD and leaves nothing behind") {
  Node node;
  const json args = {{"args", {{"cni", {{"ips", {"10.1.2.88", "10.1.2.77"}}}}}}};
  const Outcome add = node.run("ADD", config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}})}}, "1.0.0", args));
  CHECK(add.exit_code == 1);
  CHECK(add.code() == cni::kInvalidNetworkConfig);
  CHECK(add.msg() == "failed to allocate all requested IPs: 10.1.2.77");
  CHECK_FALSE(fs::exists(node.file("10.1.2.88")));
}

TEST_CASE("when a later range set fails, the addresses taken from earlier ones are released") {
  Node node;
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}, {"10.1.3.0/30"}})}});
  REQUIRE(node.run("ADD", config, "first").exit_code == 0);  // takes 10.1.3.2, the only address of set 1
  const Outcome add = node.run("ADD", config, "second");
  CHECK(add.code() == cni::kNoAddressAvailable);
  CHECK(add.msg() == "failed to allocate for range 1: no IP addresses available in range set: 10.1.3.1-10.1.3.2");
  CHECK_FALSE(fs::exists(node.file("10.1.2.3")));
  CHECK(read_text(node.file("10.1.2.2")) == "first\r\neth0");
}

TEST_CASE("CHECK: the allocation exists and matches prevResult") {
  Node node;
  const std::string version = "1.0.0";
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}, {"2001:db8::/64"}})}}, version);
  const Outcome add = node.run("ADD", config);
  REQUIRE(add.exit_code == 0);
  CHECK(node.run("CHECK", config).exit_code == 0);

  json with_prev = json::parse(config);
  with_prev["prevResult"] = add.out;
  with_prev["prevResult"]["ips"].push_back({{"address", "192.168.7.7/24"}});  // another plugin's: ignored
  CHECK(node.run("CHECK", with_prev.dump()).exit_code == 0);

  json missing = json::parse(config);
  missing["prevResult"] = add.out;
  missing["prevResult"]["ips"].erase(1);
  const Outcome short_prev = node.run("CHECK", missing.dump());
  CHECK(short_prev.code() == cni::kAllocationMismatch);
  CHECK(short_prev.msg() == "host-local: address 2001:db8::2 of container dummy is not in prevResult");

  json extra = json::parse(config);
  extra["prevResult"] = add.out;
  extra["prevResult"]["ips"].push_back({{"address", "10.1.2.9/24"}});
  CHECK(node.run("CHECK", extra.dump()).msg() ==
        "host-local: prevResult address 10.1.2.9 is not allocated to container dummy");

  const Outcome other = node.run("CHECK", config, "someone-else");
  CHECK(other.code() == cni::kAllocationMismatch);
  CHECK(other.msg() == "host-local: Failed to find address added by container someone-else");
  REQUIRE(node.run("DEL", config).exit_code == 0);
  CHECK(node.run("CHECK", config).msg() == "host-local: Failed to find address added by container dummy");
}

TEST_CASE("GC releases what no valid attachment owns, with either attachments key") {
  for (const std::string key : {"cni.dev/valid-attachments", "cni.dev/attachments"}) {
    CAPTURE(key);
    Node node;
    const std::string config = config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}})}}, "1.1.0");
    REQUIRE(node.run("ADD", config, "keep", "eth0").exit_code == 0);  // .2
    REQUIRE(node.run("ADD", config, "keep", "eth1").exit_code == 0);  // .3
    REQUIRE(node.run("ADD", config, "gone", "eth0").exit_code == 0);  // .4
    write_text(node.file("10.1.2.20"), "keep-legacy");
    write_text(node.file("10.1.2.21"), "gone-legacy");
    json gc = json::parse(config);
    gc[key] = json::array(
        {{{"containerID", "keep"}, {"ifname", "eth0"}}, {{"containerID", "keep-legacy"}, {"ifname", "eth0"}}});
    const Outcome out = node.run("GC", gc.dump(), "", "");
    CHECK(out.exit_code == 0);
    CHECK(fs::exists(node.file("10.1.2.2")));
    CHECK_FALSE(fs::exists(node.file("10.1.2.3")));
    CHECK_FALSE(fs::exists(node.file("10.1.2.4")));
    CHECK(fs::exists(node.file("10.1.2.20")));
    CHECK_FALSE(fs::exists(node.file("10.1.2.21")));
    CHECK(fs::exists(node.network_dir() / "last_reserved_ip.0"));
    CHECK(fs::exists(node.network_dir() / "lock"));
  }
}

TEST_CASE("GC without any attachments key releases everything; GC of an unknown network does nothing") {
  Node node;
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}})}}, "1.1.0");
  REQUIRE(node.run("ADD", config, "a").exit_code == 0);
  CHECK(node.run("GC", config, "", "").exit_code == 0);
  CHECK_FALSE(fs::exists(node.file("10.1.2.2")));
  json other = json::parse(config);
  other["name"] = "othernet";
  CHECK(node.run("GC", other.dump(), "", "").exit_code == 0);
  CHECK_FALSE(fs::exists(node.network_dir("othernet")));
}

TEST_CASE("what a killed writer leaves is released by the next DEL or GC, and blocks nothing else") {
  Node node;
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.2.0/29"}})}}, "1.1.0");
  REQUIRE(node.run("ADD", config, "a").exit_code == 0);  // creates the directory; .2
  // The reference killed between creating and filling a file; ours killed
  // before publishing its staged reservation.
  write_text(node.file("10.1.2.3"), "");
  write_text(node.network_dir() / std::string(hl::kStagingFileName), "b\r\neth0");
  CHECK(addresses(node.run("ADD", config, "c"), "1.1.0") == Strings{"10.1.2.4/29"});
  CHECK(node.run("DEL", config, "unrelated").exit_code == 0);
  CHECK_FALSE(fs::exists(node.file("10.1.2.3")));
  CHECK_FALSE(fs::exists(node.network_dir() / std::string(hl::kStagingFileName)));
  CHECK(fs::exists(node.file("10.1.2.2")));
  CHECK(fs::exists(node.file("10.1.2.4")));

  write_text(node.file("10.1.2.5"), "\r\n");
  json gc = json::parse(config);
  gc["cni.dev/valid-attachments"] =
      json::array({{{"containerID", "a"}, {"ifname", "eth0"}}, {{"containerID", "c"}, {"ifname", "eth0"}}});
  CHECK(node.run("GC", gc.dump(), "", "").exit_code == 0);
  CHECK_FALSE(fs::exists(node.file("10.1.2.5")));
  CHECK(fs::exists(node.file("10.1.2.4")));
}

TEST_CASE("STATUS: ready, full, or its data folder a file") {
  Node node;
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.2.0/30"}, {"2001:db8::/64"}})}}, "1.1.0");
  CHECK(node.run("STATUS", config, "", "").exit_code == 0);
  REQUIRE(node.run("ADD", config, "a").exit_code == 0);
  const Outcome full = node.run("STATUS", config, "", "");
  CHECK(full.code() == cni::kPluginNotAvailable);
  CHECK(full.msg() == "no IP addresses available in range set: 10.1.2.1-10.1.2.2");
  REQUIRE(node.run("DEL", config, "a").exit_code == 0);
  CHECK(node.run("STATUS", config, "", "").exit_code == 0);

  write_text(node.dir().path() / "not-a-dir", "x");
  json broken = json::parse(config);
  broken["ipam"]["dataDir"] = path_text(node.dir().path() / "not-a-dir");
  const Outcome unusable = node.run("STATUS", broken.dump(), "", "");
  CHECK(unusable.code() == cni::kPluginNotAvailable);
  CHECK(unusable.msg().rfind("data directory unusable: ", 0) == 0);
}

// security review, finding 2 (the probe file written through a link) and
// operator review: containerd polls STATUS every 5 s for networks no pod
// may use yet.
TEST_CASE("STATUS writes nothing: no network folder, lock or probe file, and a link in the store is not followed") {
  Node node;
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}})}}, "1.1.0");
  CHECK(node.run("STATUS", config, "", "").exit_code == 0);
  CHECK_FALSE(fs::exists(node.network_dir()));
  REQUIRE(node.run("ADD", config, "a").exit_code == 0);
  const auto before = fs::last_write_time(node.network_dir() / "lock");
  const fs::path victim = node.dir().path() / "victim";
  write_text(victim, "precious");
  // The probe name the old STATUS wrote through, as a link where links can
  // be made (Wine's file system has none).
  std::error_code no_links;
  fs::create_symlink(victim, node.network_dir() / ".wincni-status-probe", no_links);
  CHECK(node.run("STATUS", config, "", "").exit_code == 0);
  CHECK(read_text(victim) == "precious");
  CHECK(fs::last_write_time(node.network_dir() / "lock") == before);
  fs::remove(node.network_dir() / ".wincni-status-probe");
  REQUIRE(node.run("DEL", config, "a").exit_code == 0);
}

TEST_CASE("STATUS looks up the addresses after the last one reserved, and lists the store only past a few taken") {
  Node node;
  // 10.1.3.1 is the gateway: 61 addresses a pod can get.
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.3.0/26"}})}}, "1.1.0");
  REQUIRE(node.run("ADD", config, "first").exit_code == 0);  // 10.1.3.2, the last one reserved
  for (int host = 3; host <= 62; ++host) write_text(node.file("10.1.3." + std::to_string(host)), "other\r\neth0");
  const Outcome full = node.run("STATUS", config, "", "");
  CHECK(full.code() == cni::kPluginNotAvailable);
  CHECK(full.msg() == "no IP addresses available in range set: 10.1.3.1-10.1.3.62");
  // Free only where looking up the next 32 after the last reserved cannot reach.
  fs::remove(node.file("10.1.3.50"));
  CHECK(node.run("STATUS", config, "", "").exit_code == 0);
  fs::remove(node.file("10.1.3.3"));
  write_text(node.file("10.1.3.50"), "other\r\neth0");
  CHECK(node.run("STATUS", config, "", "").exit_code == 0);
}

// security review, finding 9.
TEST_CASE("a relative dataDir is refused with code 7: it would be resolved in the runtime's working directory") {
  Node node;
  json config = json::parse(config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}})}}));
  config["ipam"]["dataDir"] = "relative/dir";
  const Outcome refused = node.run("ADD", config.dump(), "c1");
  CHECK(refused.code() == cni::kInvalidNetworkConfig);
  CHECK(refused.msg() == "ipam.dataDir \"relative/dir\" is relative: give a path from the root");
}

TEST_CASE("bad configs fail ADD with the reference's message and a precise code") {
  Node node;
  const Outcome overlap = node.run("ADD", config_with(node, {{"ranges", ranges({{"10.1.2.0/24"}, {"10.1.0.0/16"}})}}));
  CHECK(overlap.code() == cni::kInvalidNetworkConfig);
  CHECK(overlap.msg() == "range set 0 overlaps with 1");
  json no_ipam = json::parse(config_with(node, {}));
  no_ipam.erase("ipam");
  CHECK(node.run("ADD", no_ipam.dump()).msg() == "IPAM config missing 'ipam' key");
  // DEL needs only where the allocations live.
  CHECK(node.run("DEL", config_with(node, {{"subnet", "10.1.2.5/24"}})).exit_code == 0);
}

TEST_CASE("a network name that names a device is refused before anything is created") {
  Node node;
  json config = json::parse(config_with(node, {{"subnet", "10.1.2.0/24"}}));
  config["name"] = "NUL";
  const Outcome add = node.run("ADD", config.dump());
  CHECK(add.code() == cni::kInvalidNetworkConfig);
  CHECK_FALSE(fs::exists(node.dir().path() / "data"));
}

// security review, findings 1 and 2: links in host-local's folders. Where
// the platform's file system has no links (Wine), the links cannot be made
// and these cases say so and stop.
namespace {

bool make_link(const fs::path& target, const fs::path& link) {
  std::error_code error;
  fs::create_symlink(target, link, error);
  if (error) MESSAGE("no symbolic links here (" << error.message() << "): the link cases are not run");
  return !error;
}

}  // namespace

TEST_CASE("a link at the owner index is refused; its target's files stay") {
  Node node;
  const std::string config = config_with(node, {{"ranges", ranges({{"10.6.0.0/24"}})}});
  REQUIRE(node.run("ADD", config, "c1").exit_code == 0);
  const fs::path victim = node.dir().path() / "victim";
  fs::create_directories(victim);
  write_text(victim / "a.conf", "keep");
  write_text(victim / "b.db", "keep");
  // The network folder moved aside and a new one made holding the link.
  fs::rename(node.network_dir(), node.dir().path() / "data" / "mynet.old");
  fs::create_directories(node.network_dir());
  if (!make_link(victim, node.network_dir() / ".wincni-owners")) return;
  // Whichever command comes to rebuild the index (an untrusted index is
  // rebuilt or read around), the link's target keeps its files.
  node.run("ADD", config, "c2");
  node.run("DEL", config, "c1");
  node.run("GC",
           config_with(node, {{"ranges", ranges({{"10.6.0.0/24"}})}}, "1.1.0",
                       {{"cni.dev/valid-attachments", json::array()}}),
           "", "");
  CHECK(read_text(victim / "a.conf") == "keep");
  CHECK(read_text(victim / "b.db") == "keep");
  CHECK(std::distance(fs::directory_iterator(victim), fs::directory_iterator()) == 2);
}

TEST_CASE("host-local writes its lock and its last reserved address never through a link") {
  Node node;
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.0.0/24"}})}});
  fs::create_directories(node.network_dir());
  const fs::path victim = node.dir().path() / "victim";
  write_text(victim, "precious");
  if (!make_link(victim, node.network_dir() / "last_reserved_ip.0")) return;
  const Outcome through_last = node.run("ADD", config, "c1");
  CHECK(read_text(victim) == "precious");
  // The address is not held when its round-robin hint cannot be written.
  if (through_last.exit_code == 0) REQUIRE(node.run("DEL", config, "c1").exit_code == 0);
  fs::remove(node.network_dir() / "last_reserved_ip.0");

  const fs::path elsewhere = node.dir().path() / "made-by-root";
  fs::remove(node.network_dir() / "lock");
  REQUIRE(make_link(elsewhere, node.network_dir() / "lock"));
  const Outcome through_lock = node.run("ADD", config, "c2");
  CHECK(through_lock.exit_code == 1);
  CHECK(through_lock.msg().find("symbolic link, refused") != std::string::npos);
  CHECK_FALSE(fs::exists(elsewhere));
}

// security review, finding 2: whoever holds a network's lock (a hung
// host-local) must not hang every pod's ADD, DEL and GC for ever.
TEST_CASE("a lock held past its limit: code 11 naming the lock, and nothing taken or released") {
  Node node;
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.0.0/24"}})}});
  REQUIRE(node.run("ADD", config, "c1").exit_code == 0);
  node.set_env("WINCNI_STORE_LOCK_TIMEOUT_MS", "200");
  {
    const os::FileLock holder(path_text(node.network_dir() / "lock"));
    for (const std::string command : {"ADD", "DEL", "CHECK", "GC"}) {
      CAPTURE(command);
      const std::string with_gc = config_with(node, {{"ranges", ranges({{"10.1.0.0/24"}})}}, "1.1.0");
      const Outcome waited = node.run(command, command == "GC" ? with_gc : config, command == "ADD" ? "c2" : "c1");
      CHECK(waited.exit_code == 1);
      CHECK(waited.code() == cni::kTryAgainLater);
      CHECK_MESSAGE(waited.msg().find("lock") != std::string::npos, waited.msg());
    }
  }
  CHECK(fs::exists(node.file("10.1.0.2")));
  CHECK_FALSE(fs::exists(node.file("10.1.0.3")));
  CHECK(node.run("DEL", config, "c1").exit_code == 0);
}

TEST_CASE("a data folder others may write is refused before anything is written in it") {
  Node node;
  const std::string config = config_with(node, {{"ranges", ranges({{"10.1.0.0/24"}})}});
  fs::create_directories(node.data_dir());
  wincni::test::let_everyone_write(node.data_dir());
  const Outcome refused = node.run("ADD", config, "c1");
  CHECK(refused.exit_code == 1);
  CHECK(refused.code() == cni::kIoFailure);
  CHECK(refused.msg().find("could replace what a plugin keeps there") != std::string::npos);
  CHECK_FALSE(fs::exists(node.network_dir()));
  wincni::test::let_only_administrators_write(node.data_dir());
  CHECK(node.run("ADD", config, "c1").exit_code == 0);
}
