// wincni-install end to end: what it puts on a node, that a second run
// changes nothing, the replacement of a binary that is running, the
// settings from flags and WINCNI_* variables, and bad input that changes
// nothing. The same program runs natively and, built for Windows, under
// Wine against wincni-install.exe, where a running program cannot be
// replaced or deleted, as on Windows.

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "conf_examples.hpp"
#include "folder_access.hpp"
#include "installer_run.hpp"
#include "test_child.hpp"

namespace wincni::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

#ifdef _WIN32
constexpr bool kRunningProgramsAreLocked = true;
#else
constexpr bool kRunningProgramsAreLocked = false;
#endif

const std::vector<std::string> kServiceCidr = {"--service-cidr", "10.96.0.0/12"};

// Every file of bin/, conf/ and flanneld/ with its content and write time.
std::map<std::string, std::pair<std::string, fs::file_time_type>> node_files(const InstallerNode& node) {
  std::map<std::string, std::pair<std::string, fs::file_time_type>> files;
  for (const fs::path& dir : {node.bin(), node.conf(), node.flanneld()}) {
    for (const std::string& name : entries(dir)) {
      files[(dir / name).string()] = {file_text(dir / name), fs::last_write_time(dir / name)};
    }
  }
  return files;
}

TEST_CASE("a first run installs every binary and writes the configs; a second changes nothing") {
  InstallerNode node;
  const auto first = node.install({"--service-cidr", "10.96.0.0/12", "--cluster-cidr", "10.244.0.0/16"});
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  CHECK(first.err.empty());

  CHECK(entries(node.bin()) == node.binaries());
  for (const std::string& binary : node.binaries()) {
    CHECK(first.line_about(node.bin() / binary) == "installed");
    CHECK(file_text(node.bin() / binary) == file_text(node.source() / binary));
  }
  CHECK(entries(node.conf()) == std::vector<std::string>{"10-flannel.conflist"});
  CHECK(first.line_about(node.conf() / "10-flannel.conflist") == "written");
  const std::string conflist = file_text(node.conf() / "10-flannel.conflist");
  CHECK(conflist.rfind("{", 0) == 0);  // no byte-order mark
  CHECK(json::parse(conflist) == json::parse(kFlannelVxlanExample));

  CHECK(first.line_about(node.flanneld() / "net-conf.json") == "written");
  CHECK(json::parse(file_text(node.flanneld() / "net-conf.json")) ==
        json{{"Network", "10.244.0.0/16"}, {"Backend", {{"Type", "vxlan"}, {"VNI", 4096}, {"Port", 4789}}}});

  const auto before = node_files(node);
  const auto second = node.install({"--service-cidr", "10.96.0.0/12", "--cluster-cidr", "10.244.0.0/16"});
  INFO(second.out << second.err);
  REQUIRE(second.exit_code == 0);
  for (const std::string& binary : node.binaries()) CHECK(second.line_about(node.bin() / binary) == "unchanged");
  CHECK(second.line_about(node.conf() / "10-flannel.conflist") == "unchanged");
  CHECK(second.line_about(node.flanneld() / "net-conf.json") == "unchanged");
  CHECK(node_files(node) == before);
}

// security review, finding 4: the runtime starts what is in the bin folder
// as root; a folder others may write lets them plant their own program.
TEST_CASE("a bin or conf folder that others may write is refused before anything is written") {
  for (const bool bin : {true, false}) {
    CAPTURE(bin);
    InstallerNode node;
    const fs::path folder = bin ? node.bin() : node.conf();
    fs::create_directories(folder);
    wincni::test::let_everyone_write(folder);
    const auto run = node.install(kServiceCidr);
    CHECK(run.exit_code != 0);
    CHECK_MESSAGE(run.err.find("could replace what a plugin keeps there") != std::string::npos, run.err);
    CHECK(entries(node.bin()).empty());
    CHECK(entries(node.conf()).empty());
    wincni::test::let_only_administrators_write(folder);
    CHECK(node.install(kServiceCidr).exit_code == 0);
  }
}

TEST_CASE("a new build replaces the installed one, and only what differs") {
  InstallerNode node;
  REQUIRE(node.install(kServiceCidr).exit_code == 0);
  // A "new build" of host-local: another valid program under its name.
  const std::string host_local = node.binary("host-local");
  // (mingw's copy_file cannot overwrite: remove first.)
  fs::remove(node.source() / host_local);
  fs::copy_file(node.source() / node.binary("hnsctl"), node.source() / host_local);

  const auto run = node.install(kServiceCidr);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.line_about(node.bin() / host_local) == "replaced");
  CHECK(run.line_about(node.bin() / node.binary("flannel")) == "unchanged");
  CHECK(file_text(node.bin() / host_local) == file_text(node.source() / host_local));
  CHECK(entries(node.bin()) == node.binaries());
}

TEST_CASE("a binary that is running is replaced; the old one is removed once it has stopped") {
  InstallerNode node;
  const std::string flannel = node.binary("flannel");
  // The node runs an older "flannel": wincni-test-child under its name,
  // sleeping until told to stop.
  fs::create_directories(node.bin());
  fs::copy_file(test_child_program(), node.bin() / flannel);
  const fs::path started = node.path("started");
  const fs::path stop = node.path("stop");
  std::atomic<int> old_exit{-1};
  std::thread old_flannel([&] {
    os::ProcessSpec spec;
    spec.program = (node.bin() / flannel).string();
    spec.env = {
        "WINCNI_TEST_SCRIPT=" +
        json{{"record", started.string()}, {"sleep_ms", 60000}, {"until", stop.string()}, {"ignore_stdin", true}}
            .dump()};
    if (const char* root = std::getenv("SystemRoot")) spec.env.push_back(std::string("SystemRoot=") + root);
    spec.timeout = std::chrono::seconds(90);
    try {
      old_exit = os::run_process(spec).exit_code;
    } catch (...) {
      old_exit = -2;
    }
  });
  struct Stopper {
    const fs::path& stop;
    std::thread& thread;
    ~Stopper() {
      std::ofstream(stop) << "stop\n";
      thread.join();
    }
  } stopper{stop, old_flannel};
  for (int i = 0; i < 3000 && !fs::exists(started); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE(fs::exists(started));

  const auto replacing = node.install(kServiceCidr);
  INFO(replacing.out << replacing.err);
  REQUIRE(replacing.exit_code == 0);
  CHECK(file_text(node.bin() / flannel) == file_text(node.source() / flannel));
  // Not a wincni build: a copy is kept for --uninstall.
  CHECK(file_text(node.bin() / "wincni-replaced" / flannel) == file_text(test_child_program()));
  fs::remove_all(node.bin() / "wincni-replaced");
  const std::string line = replacing.line_about(node.bin() / flannel);
  std::vector<std::string> aside;
  for (const std::string& name : entries(node.bin())) {
    if (name.rfind(flannel + ".old-", 0) == 0) aside.push_back(name);
  }
  if (kRunningProgramsAreLocked) {
    // Windows refused to replace it: it was renamed and runs on from there.
    REQUIRE(aside.size() == 1);
    CHECK(line == "replaced; the running one was moved to " + (node.bin() / aside[0]).string() +
                      " and is removed by a later run");
    CHECK(file_text(node.bin() / aside[0]) == file_text(test_child_program()));

    // While it runs, a run keeps it and changes nothing else.
    const auto while_running = node.install(kServiceCidr);
    CHECK(while_running.exit_code == 0);
    CHECK(while_running.line_about(node.bin() / aside[0]) == "still running (or locked), kept");
    CHECK(while_running.line_about(node.bin() / flannel) == "unchanged");
  } else {
    // POSIX renames over a running program's name.
    CHECK(aside.empty());
    CHECK(line == "replaced");
  }

  std::ofstream(stop) << "stop\n";
  for (int i = 0; i < 3000 && old_exit == -1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(old_exit == 0);  // the old one ran to its end where it had been moved

  const auto after = node.install(kServiceCidr);
  INFO(after.out << after.err);
  CHECK(after.exit_code == 0);
  if (kRunningProgramsAreLocked) CHECK(after.line_about(node.bin() / aside[0]) == "removed (left by an earlier run)");
  CHECK(entries(node.bin()) == node.binaries());
}

TEST_CASE("what a killed run left is removed; files that only look like it are not") {
  InstallerNode node;
  fs::create_directories(node.bin());
  const std::string flannel = node.binary("flannel");
  for (const std::string& name : {flannel + ".new-0123abcd", flannel + ".old-89abcdef"}) {
    std::ofstream(node.bin() / name) << "half a program";
  }
  // Not ours: another program's name, and suffixes of the wrong shape.
  const std::vector<std::string> foreign = {"calico.exe.old-0123abcd", flannel + ".old-0123", flannel + ".old-XYZ12345",
                                            flannel + ".bak"};
  for (const std::string& name : foreign) std::ofstream(node.bin() / name) << "someone else's";

  const auto run = node.install(kServiceCidr);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.line_about(node.bin() / (flannel + ".new-0123abcd")) == "removed (left by an earlier run)");
  CHECK(run.line_about(node.bin() / (flannel + ".old-89abcdef")) == "removed (left by an earlier run)");
  std::vector<std::string> expected = node.binaries();
  expected.insert(expected.end(), foreign.begin(), foreign.end());
  std::sort(expected.begin(), expected.end());
  CHECK(entries(node.bin()) == expected);
}

TEST_CASE("settings come from flags, else from WINCNI_* variables, else the defaults") {
  InstallerNode node;
  SUBCASE("host-gw from the environment gives the host-gw example") {
    const auto run = node.install({}, {{"WINCNI_BACKEND", "host-gw"}, {"WINCNI_SERVICE_CIDR", "10.96.0.0/12"}});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(json::parse(file_text(node.conf() / "10-flannel.conflist")) == json::parse(kFlannelHostGwExample));
    CHECK_FALSE(fs::exists(node.flanneld()));  // no cluster CIDR, no net-conf.json
  }
  SUBCASE("a flag wins over its variable") {
    const auto run = node.install({"--backend", "vxlan", "--vni", "4100", "--node-ip", "192.168.1.20"},
                                  {{"WINCNI_BACKEND", "host-gw"},
                                   {"WINCNI_VNI", "5000"},
                                   {"WINCNI_SERVICE_CIDR", "10.96.0.0/12,fd00:10:96::/112"},
                                   {"WINCNI_DNS_SERVER", "10.96.0.53"},
                                   {"WINCNI_DNS_DOMAIN", "corp.example"},
                                   {"WINCNI_CLUSTER_CIDR", "10.244.0.0/16,fd00:10:244::/56"},
                                   {"WINCNI_CONF_NAME", "05-wincni.conflist"}});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    const json conflist = json::parse(file_text(node.conf() / "05-wincni.conflist"));
    CHECK(conflist["name"] == "flannel.4100");
    const json& plugin = conflist["plugins"][0];
    CHECK(plugin["serviceCIDR"] == "10.96.0.0/12,fd00:10:96::/112");
    CHECK(plugin["nodeIP"] == "192.168.1.20");
    CHECK(plugin["delegate"]["type"] == "win-overlay");
    CHECK(plugin["delegate"]["dns"] == json{{"nameservers", {"10.96.0.53"}}, {"search", {"svc.corp.example"}}});
    CHECK(json::parse(file_text(node.flanneld() / "net-conf.json")) ==
          json{{"Network", "10.244.0.0/16"},
               {"EnableIPv6", true},
               {"IPv6Network", "fd00:10:244::/56"},
               {"Backend", {{"Type", "vxlan"}, {"VNI", 4100}, {"Port", 4789}}}});
  }
  SUBCASE("folders named in any script (Windows' ANSI argv would turn them into '?')") {
    const std::string folder = "\xe8\x8a\x82\xe7\x82\xb9-n\xc5\x93ud";  // 节点-nœud
    const fs::path bin = node.path("x") / std::u8string(folder.begin(), folder.end());
    const std::u8string bin_utf8 = bin.u8string();
    const auto run = node.run({"--bin-dir", std::string(bin_utf8.begin(), bin_utf8.end()), "--conf-dir",
                               node.conf().string(), "--service-cidr", "10.96.0.0/12"});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(entries(bin) == node.binaries());
    CHECK(entries(node.path("x")).size() == 1);
  }
  SUBCASE("the network name can be flanneld's legacy one") {
    const auto run = node.install({"--network-name", "vxlan0", "--service-cidr", "10.96.0.0/12"});
    REQUIRE(run.exit_code == 0);
    CHECK(json::parse(file_text(node.conf() / "10-flannel.conflist"))["name"] == "vxlan0");
  }
}

// operator review: over sig-windows-tools' flannel, whose 10-flannel.conf
// sorts before our 10-flannel.conflist, the installer said a warning, exited
// 0, and the node kept running the old plugin.
TEST_CASE("a config the runtime would load first fails the run, unless --take-over moves it aside") {
  InstallerNode node;
  fs::create_directories(node.conf());
  std::ofstream(node.conf() / "10-flannel.conf") << R"({"name":"cbr0","type":"flannel"})";
  std::ofstream(node.conf() / "0-containerd-nat.conf") << "{}";
  std::ofstream(node.conf() / "99-later.conflist") << "{}";
  std::ofstream(node.conf() / "05-notes.txt") << "not a config";

  const auto refused = node.install(kServiceCidr);
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("0-containerd-nat.conf, 10-flannel.conf") != std::string::npos);
  CHECK(refused.err.find("--take-over") != std::string::npos);
  CHECK(refused.err.find("99-later") == std::string::npos);
  CHECK(entries(node.bin()).empty());
  CHECK_FALSE(fs::exists(node.conf() / "10-flannel.conflist"));

  std::vector<std::string> taken = {"--take-over"};
  taken.insert(taken.end(), kServiceCidr.begin(), kServiceCidr.end());
  const auto took = node.install(taken);
  INFO(took.out << took.err);
  REQUIRE(took.exit_code == 0);
  const fs::path kept = node.conf() / "wincni-taken-over";
  CHECK(file_text(kept / "10-flannel.conf") == R"({"name":"cbr0","type":"flannel"})");
  CHECK(fs::exists(kept / "0-containerd-nat.conf"));
  CHECK(took.line_about(node.conf() / "10-flannel.conf").starts_with("moved aside to "));
  // What stays: ours, a config after ours, a file that is no config.
  CHECK(fs::exists(node.conf() / "10-flannel.conflist"));
  CHECK(fs::exists(node.conf() / "99-later.conflist"));
  CHECK(fs::exists(node.conf() / "05-notes.txt"));
  CHECK_FALSE(fs::exists(node.conf() / "10-flannel.conf"));
  CHECK(node.install(kServiceCidr).exit_code == 0);  // nothing left before ours

  // A second take-over never overwrites what the first kept.
  std::ofstream(node.conf() / "10-flannel.conf") << "{}";
  const auto again = node.install(taken);
  CHECK(again.exit_code == 1);
  CHECK(again.err.find("already in") != std::string::npos);
  CHECK(file_text(kept / "10-flannel.conf") == R"({"name":"cbr0","type":"flannel"})");
  CHECK(fs::exists(node.conf() / "10-flannel.conf"));
}

TEST_CASE("--uninstall removes this release's binaries, moves our config aside, puts back what --take-over moved") {
  InstallerNode node;
  fs::create_directories(node.conf());
  const std::string theirs = R"({"name":"cbr0","type":"flannel"})";
  std::ofstream(node.conf() / "10-flannel.conf") << theirs;
  std::vector<std::string> taken = {"--take-over", "--cluster-cidr", "10.244.0.0/16"};
  taken.insert(taken.end(), kServiceCidr.begin(), kServiceCidr.end());
  REQUIRE(node.install(taken).exit_code == 0);
  const std::string ours = file_text(node.conf() / "10-flannel.conflist");
  // An operator's own build of one binary is not this release's.
  const std::string own_build = node.binary("hnsctl");
  std::ofstream(node.bin() / own_build, std::ios::binary | std::ios::app) << "patched";

  const auto undone = node.install({"--uninstall"});
  INFO(undone.out << undone.err);
  REQUIRE(undone.exit_code == 0);
  for (const std::string& binary : node.binaries()) {
    CAPTURE(binary);
    CHECK(fs::exists(node.bin() / binary) == (binary == own_build));
  }
  CHECK(undone.line_about(node.bin() / own_build).starts_with("kept: not the build beside this installer"));
  CHECK(file_text(node.conf() / "10-flannel.conf") == theirs);
  CHECK_FALSE(fs::exists(node.conf() / "10-flannel.conflist"));
  CHECK(file_text(node.conf() / "wincni-uninstalled" / "10-flannel.conflist") == ours);
  CHECK(fs::exists(node.flanneld() / "net-conf.json"));  // flanneld may still read it

  // Installed again over what was put back, and undone again while a file
  // of a taken-over name has appeared meanwhile: that one is not put back.
  REQUIRE(node.install(taken).exit_code == 0);
  std::ofstream(node.conf() / "10-flannel.conf") << "{}";
  const auto second = node.install({"--uninstall"});
  REQUIRE(second.exit_code == 0);
  CHECK(file_text(node.conf() / "10-flannel.conf") == "{}");
  CHECK(file_text(node.conf() / "wincni-taken-over" / "10-flannel.conf") == theirs);
  CHECK(second.line_about(node.conf() / "wincni-taken-over" / "10-flannel.conf").starts_with("kept: "));
}

// operator review: nothing checked that containerd reads CNI plugins and
// configs from the folders the installer writes (sig-windows-tools'
// Install-Containerd.ps1 sets them); a node whose containerd looks
// elsewhere kept its old plugin after a "successful" run.
TEST_CASE("containerd's config.toml pointing elsewhere fails the run; the patch sets it, --uninstall restores it") {
  InstallerNode node;
  const fs::path config = node.path("config.toml");
  // containerd 2.x's default, with CRLF as a Windows editor leaves it.
  const std::string original =
      "version = 3\r\n"
      "# the node's containerd\r\n"
      "[plugins.'io.containerd.cri.v1.runtime'.cni]\r\n"
      "  bin_dir = ''\r\n"
      "  bin_dirs = ['C:\\Program Files\\containerd\\cni\\bin']\r\n"
      "  conf_dir = 'C:\\Program Files\\containerd\\cni\\conf'\r\n"
      "  max_conf_num = 1\r\n";
  std::ofstream(config, std::ios::binary) << original;
  std::vector<std::string> checked = {"--containerd-config", config.string()};
  checked.insert(checked.end(), kServiceCidr.begin(), kServiceCidr.end());

  const auto refused = node.install(checked);
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("containerd looks for CNI plugins in C:\\Program Files\\containerd\\cni\\bin "
                         "(plugins.'io.containerd.cri.v1.runtime'.cni.bin_dirs), not in " +
                         node.bin().string()) != std::string::npos);
  CHECK(refused.err.find("containerd reads CNI configs from") != std::string::npos);
  CHECK(refused.err.find("--patch-containerd-config") != std::string::npos);
  CHECK(entries(node.bin()).empty());
  CHECK_FALSE(fs::exists(node.conf() / "10-flannel.conflist"));
  CHECK(file_text(config) == original);

  std::vector<std::string> patching = checked;
  patching.push_back("--patch-containerd-config");
  const auto patched = node.install(patching);
  INFO(patched.out << patched.err);
  REQUIRE(patched.exit_code == 0);
  CHECK(patched.line_about(config).starts_with("patched: containerd looks for CNI plugins in"));
  CHECK(patched.line_about(config).find("restart containerd") != std::string::npos);
  const fs::path backup = node.path("config.toml.wincni-backup");
  CHECK(file_text(backup) == original);
  const std::string now = file_text(config);
  CHECK(now.find("  bin_dirs = ['" + node.bin().string() + "', 'C:\\Program Files\\containerd\\cni\\bin']\r\n") !=
        std::string::npos);
  CHECK(now.find("  conf_dir = '" + node.conf().string() + "'\r\n") != std::string::npos);
  CHECK(now.find("# the node's containerd\r\n") != std::string::npos);

  // Checked again, it passes; so does the variable instead of the flag.
  const auto again = node.install(checked, {{"WINCNI_PATCH_CONTAINERD_CONFIG", "1"}});
  REQUIRE(again.exit_code == 0);
  CHECK(again.line_about(config) == "containerd finds wincni's plugins and config");
  CHECK(file_text(config) == now);

  const auto undone = node.install({"--uninstall", "--containerd-config", config.string()});
  INFO(undone.out << undone.err);
  REQUIRE(undone.exit_code == 0);
  CHECK(undone.line_about(config).starts_with("put back (from "));
  CHECK(file_text(config) == original);
  CHECK_FALSE(fs::exists(backup));

  // Edited by hand after the patch: neither file is touched by --uninstall.
  REQUIRE(node.install(patching).exit_code == 0);
  std::ofstream(config, std::ios::binary | std::ios::app) << "# an operator's edit\r\n";
  const std::string edited = file_text(config);
  const auto kept = node.install({"--uninstall", "--containerd-config", config.string()});
  REQUIRE(kept.exit_code == 0);
  CHECK(kept.line_about(backup).starts_with("kept: "));
  CHECK(file_text(config) == edited);
  CHECK(file_text(backup) == original);
}

// review: containerd runs the first plugin of a name in its folders' order;
// ours anywhere in bin_dirs was taken as enough.
TEST_CASE(
    "containerd searching another folder with a plugin of ours before ours fails the run; the patch puts ours first") {
  InstallerNode node;
  const fs::path other = node.path("other-bin");
  fs::create_directories(other);
  std::ofstream(other / node.binary("flannel"), std::ios::binary) << "the reference flannel";
  const fs::path config = node.path("config.toml");
  std::ofstream(config, std::ios::binary)
      << "version = 3\n[plugins.'io.containerd.cri.v1.runtime'.cni]\n  bin_dirs = ['" << other.string() << "', '"
      << node.bin().string() << "']\n  conf_dir = '" << node.conf().string() << "'\n";
  std::vector<std::string> args = {"--containerd-config", config.string()};
  args.insert(args.end(), kServiceCidr.begin(), kServiceCidr.end());
  const auto refused = node.install(args);
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("containerd looks for CNI plugins in " + other.string() + " before " + node.bin().string() +
                         ", and " + other.string() + " holds " + node.binary("flannel")) != std::string::npos);
  CHECK(entries(node.bin()).empty());

  args.push_back("--patch-containerd-config");
  const auto patched = node.install(args);
  INFO(patched.out << patched.err);
  REQUIRE(patched.exit_code == 0);
  CHECK(file_text(config).find("bin_dirs = ['" + node.bin().string() + "', '" + other.string() + "']") !=
        std::string::npos);
}

TEST_CASE("a containerd config.toml that cannot be read as containerd's, or is not there, changes nothing") {
  InstallerNode node;
  const fs::path config = node.path("config.toml");
  const auto attempt = [&](std::vector<std::string> extra) {
    extra.insert(extra.end(), kServiceCidr.begin(), kServiceCidr.end());
    return node.install(extra);
  };
  // Double quotes make \o an escape: containerd refuses the file too.
  std::ofstream(config, std::ios::binary)
      << "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\".cni]\n  bin_dir = \"C:\\opt\\cni\\bin\"\n";
  const auto bad = attempt({"--containerd-config", config.string()});
  INFO(bad.out << bad.err);
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find(config.string() + ": line 3: the escape \\o") != std::string::npos);
  const auto patch_bad = attempt({"--containerd-config", config.string(), "--patch-containerd-config"});
  CHECK(patch_bad.exit_code == 1);
  CHECK(entries(node.bin()).empty());

  const auto missing = attempt({"--containerd-config", node.path("absent.toml").string()});
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("does not exist") != std::string::npos);
  CHECK(entries(node.bin()).empty());
  CHECK(attempt({"--containerd-config", "relative.toml"}).exit_code == 2);
#ifndef _WIN32
  // Never read or written through a link.
  fs::create_symlink(config, node.path("link.toml"));
  const auto link = attempt({"--containerd-config", node.path("link.toml").string(), "--patch-containerd-config"});
  CHECK(link.exit_code == 1);
  CHECK(link.err.find("is a link") != std::string::npos);
  CHECK(entries(node.bin()).empty());
#endif

  // "none" skips the check, as the dockershim layout does unasked.
  const auto skipped = attempt({"--containerd-config", "none"});
  INFO(skipped.out << skipped.err);
  CHECK(skipped.exit_code == 0);
  CHECK(skipped.out.find("config.toml") == std::string::npos);
}

// operator review: the cluster's facts were repeated in a ConfigMap of our
// own, which drifts from kube-flannel's kube-flannel-cfg, the file the Linux
// nodes' flanneld reads.
TEST_CASE("--net-conf: kube-flannel-cfg's net-conf.json gives backend, VNI and pod network, and is written as it is") {
  InstallerNode node;
  const fs::path net_conf = node.path("kube-flannel-cfg-net-conf.json");
  const std::string cluster =
      "{\n  \"Network\": \"10.42.0.0/16\",\n  \"EnableNFTables\": false,\n"
      "  \"Backend\": {\"Type\": \"vxlan\", \"VNI\": 4097, \"Port\": 4789}\n}\n";
  std::ofstream(net_conf, std::ios::binary) << cluster;
  std::vector<std::string> args = {"--net-conf", net_conf.string()};
  args.insert(args.end(), kServiceCidr.begin(), kServiceCidr.end());
  const auto run = node.install(args);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(file_text(node.flanneld() / "net-conf.json") == cluster);  // every node runs one file
  const json conflist = json::parse(file_text(node.conf() / "10-flannel.conflist"));
  CHECK(conflist["name"] == "flannel.4097");
  CHECK(conflist["plugins"][0]["delegate"]["type"] == "win-overlay");

  // A flag that agrees is fine; one that does not names both sides.
  std::vector<std::string> agreeing = args;
  agreeing.insert(agreeing.end(), {"--vni", "4097", "--cluster-cidr", "10.42.0.0/16"});
  CHECK(node.install(agreeing).exit_code == 0);
  const auto differing = node.install(args, {{"WINCNI_BACKEND", "host-gw"}});
  CHECK(differing.exit_code == 2);
  CHECK(differing.err.find("WINCNI_BACKEND \"host-gw\" differs from what " + net_conf.string() + " says") !=
        std::string::npos);

  struct Refused {
    std::string text;
    std::string message;
  };
  const std::vector<Refused> refused = {
      {R"({"Network":"10.244.0.0/16","Backend":{"Type":"vxlan"}})",
       "Backend.VNI is 1 (flannel's default); flanneld on Windows needs 4096 or more"},
      {R"({"Network":"10.244.0.0/16","Backend":{"Type":"vxlan","VNI":4096}})",
       "Backend.Port is 8472 (flannel's default on Linux); HNS's Overlay network uses 4789 only"},
      {R"({"Network":"10.244.0.0/16","Backend":{"Type":"wireguard"}})", "Backend.Type \"wireguard\""},
      {R"({"Network":"10.244.0.1/16","Backend":{"Type":"host-gw"}})", "\"Network\" must be the cluster's pod network"},
      {"not json", "not a JSON object"},
      {R"({"Network":"10.244.0.0/16","Backend":{"Type":"vxlan","VNI":4294971392,"Port":4789}})",
       "Backend.VNI must be a number below 2^32"},
  };
  for (const Refused& bad : refused) {
    std::ofstream(net_conf, std::ios::binary | std::ios::trunc) << bad.text;
    const auto attempt = node.install(args);
    INFO(bad.text << "\n" << attempt.err);
    CHECK(attempt.exit_code == 2);
    CHECK(attempt.err.find(bad.message) != std::string::npos);
  }
  // host-gw takes no VNI or port.
  std::ofstream(net_conf, std::ios::binary | std::ios::trunc)
      << R"({"Network":"10.244.0.0/16","Backend":{"Type":"host-gw"}})";
  const auto host_gw = node.install(args);
  REQUIRE(host_gw.exit_code == 0);
  CHECK(json::parse(file_text(node.conf() / "10-flannel.conflist"))["name"] == "cbr0");
}

// rke2 and k3s write their own conflist (07-flannel.conflist) and run
// flanneld and kube-proxy in their agent: only the plugins are replaced.
TEST_CASE("--binaries-only: the plugins for a node whose config another agent writes (rke2, k3s)") {
  InstallerNode node;
  fs::create_directories(node.conf());
  const std::string theirs = R"({"cniVersion":"1.0.0","name":"flannel.4096","plugins":[{"type":"flannel"}]})";
  std::ofstream(node.conf() / "07-flannel.conflist") << theirs;
  // The agent's containerd reads configs from its own folder; only the bin
  // folder is checked.
  const fs::path config = node.path("config.toml");
  std::ofstream(config, std::ios::binary) << "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\".cni]\n  bin_dir = '"
                                          << node.bin().string() << "'\n  conf_dir = 'C:\\elsewhere'\n";
  const auto run = node.install({"--binaries-only", "--containerd-config", config.string()});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(entries(node.bin()) == node.binaries());
  CHECK(entries(node.conf()) == std::vector<std::string>{"07-flannel.conflist"});
  CHECK(file_text(node.conf() / "07-flannel.conflist") == theirs);
  CHECK_FALSE(fs::exists(node.flanneld()));
  CHECK(run.line_about(config) == "containerd finds wincni's plugins and config");

  // A containerd that looks for plugins elsewhere still fails the run.
  std::ofstream(config, std::ios::binary | std::ios::trunc)
      << "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\".cni]\n  bin_dir = 'C:\\rke2\\bin'\n";
  const auto elsewhere = node.install({"--containerd-config", config.string()}, {{"WINCNI_BINARIES_ONLY", "1"}});
  CHECK(elsewhere.exit_code == 1);
  CHECK(elsewhere.err.find("containerd looks for CNI plugins in C:\\rke2\\bin") != std::string::npos);
  CHECK(elsewhere.err.find("reads CNI configs") == std::string::npos);
}

// fresh-eyes review: installing over the reference plugins replaced their
// flannel.exe and host-local.exe without a copy, and --uninstall then left
// the node with no plugins at all.
TEST_CASE("another project's plugin that an install replaces is kept, and --uninstall puts it back") {
  InstallerNode node;
  fs::create_directories(node.bin());
  const std::string reference = "MZ the reference flannel, built by someone else";
  const std::string older_wincni = "MZ flannel (wincni 0.0.9, commit 0123456789ab)";
  std::ofstream(node.bin() / node.binary("flannel"), std::ios::binary) << reference;
  std::ofstream(node.bin() / node.binary("host-local"), std::ios::binary) << older_wincni;
  std::ofstream(node.bin() / "portmap", std::ios::binary) << "another plugin wincni has none of";

  const auto run = node.install(kServiceCidr);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const fs::path kept = node.bin() / "wincni-replaced";
  CHECK(run.out.find((node.bin() / node.binary("flannel")).string() + ": another project's plugin; kept as ") !=
        std::string::npos);
  CHECK(run.line_about(node.bin() / node.binary("flannel")) == "replaced");
  CHECK(entries(kept) == std::vector<std::string>{node.binary("flannel")});  // not the older wincni
  CHECK(file_text(kept / node.binary("flannel")) == reference);
  CHECK(file_text(node.bin() / node.binary("flannel")) == file_text(node.source() / node.binary("flannel")));

  // A second run changes no copy; a newer reference build put back by hand
  // since is the copy the next install keeps.
  REQUIRE(node.install(kServiceCidr).exit_code == 0);
  CHECK(file_text(kept / node.binary("flannel")) == reference);
  const std::string newer = "MZ a newer reference flannel";
  fs::remove(node.bin() / node.binary("flannel"));
  std::ofstream(node.bin() / node.binary("flannel"), std::ios::binary) << newer;
  REQUIRE(node.install(kServiceCidr).exit_code == 0);
  CHECK(file_text(kept / node.binary("flannel")) == newer);

  const auto undone = node.install({"--uninstall"});
  INFO(undone.out << undone.err);
  REQUIRE(undone.exit_code == 0);
  CHECK(undone.line_about(node.bin() / node.binary("flannel")).starts_with("put back (from "));
  CHECK(file_text(node.bin() / node.binary("flannel")) == newer);
  CHECK_FALSE(fs::exists(node.bin() / node.binary("host-local")));
  CHECK(fs::exists(node.bin() / "portmap"));
  CHECK_FALSE(fs::exists(kept));
}

TEST_CASE("bad input fails before anything on the node changes") {
  InstallerNode node;
  struct Case {
    std::vector<std::string> args;
    std::map<std::string, std::string> variables;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{}, {}, 2, "--service-cidr (or WINCNI_SERVICE_CIDR) is required"},
      {{"--service-cidr", "10.96.0.1/12"}, {}, 2, "has host bits set; the network is 10.96.0.0/12"},
      {{"--service-cidr", "10.96.0.0/12,10.97.0.0/16"}, {}, 2, "one network per IP family"},
      {{"--service-cidr", "ten"}, {}, 2, "\"ten\" is not a CIDR"},
      {kServiceCidr, {{"WINCNI_VNI", "4095"}}, 2, "WINCNI_VNI: \"4095\" is not a VNI"},
      {{"--vni", "16777216", "--service-cidr", "10.96.0.0/12"}, {}, 2, "--vni: \"16777216\" is not a VNI"},
      {kServiceCidr, {{"WINCNI_BACKEND", "udp"}}, 2, "\"udp\" is not a backend"},
      {kServiceCidr, {{"WINCNI_LAYOUT", "cri-o"}}, 2, "\"cri-o\" is not a layout"},
      {{"--cluster-cidr", "10.96.0.0/16", "--service-cidr", "10.96.0.0/12"}, {}, 2, "overlaps"},
      {{"--node-ip", "10.0.0.300", "--service-cidr", "10.96.0.0/12"}, {}, 2, "\"10.0.0.300\" is not an IP address"},
      {{"--conf-name", "..\\evil.conflist", "--service-cidr", "10.96.0.0/12"}, {}, 2, "a file name, not a path"},
      {{"--conf-name", "10-flannel.conf", "--service-cidr", "10.96.0.0/12"}, {}, 2, "must end in .conflist"},
      {{"--no-such-flag"}, {}, 2, "no-such-flag"},
      {{"--bin-dir", "relative\\bin", "--service-cidr", "10.96.0.0/12"}, {}, 2, "is not a full path"},
      {kServiceCidr, {{"WINCNI_SOURCE_DIR", "release"}}, 2, "WINCNI_SOURCE_DIR: \"release\" is not a full path"},
      {{"--vni=", "--service-cidr", "10.96.0.0/12"}, {}, 2, "--vni is empty"},
      {{"--service-cidr", "fd00:10:96::/112"}, {}, 2, "--dns-server (or WINCNI_DNS_SERVER) is required"},
      {{"--service-cidr", "10.96.0.0/30"}, {}, 2, "--dns-server (or WINCNI_DNS_SERVER) is required"},
      {{"--cluster-cidr", "fd00:10:244::/56", "--service-cidr", "10.96.0.0/12"},
       {},
       2,
       "needs an IPv4 cluster network"},
      {{"--conf-name", "nul.conflist", "--service-cidr", "10.96.0.0/12"}, {}, 2, "names a device on Windows"},
      {{"--service-cidr", "10.96.0.0/12", "stray"}, {}, 2, "unexpected argument \"stray\""},
  };
  for (const Case& c : cases) {
    const auto run = node.install(c.args, c.variables);
    INFO(c.message << "\n" << run.out << run.err);
    CHECK(run.exit_code == c.exit_code);
    CHECK(run.err.find(c.message) != std::string::npos);
    CHECK(run.out.empty());
  }
  // A release folder without one of the binaries.
  fs::remove(node.source() / node.binary("win-overlay"));
  const auto incomplete = node.install(kServiceCidr);
  CHECK(incomplete.exit_code == 1);
  CHECK(incomplete.err.find(node.binary("win-overlay") + " is not in") != std::string::npos);

  CHECK_FALSE(fs::exists(node.bin()));
  CHECK_FALSE(fs::exists(node.conf()));
  CHECK_FALSE(fs::exists(node.flanneld()));
}

TEST_CASE("--version, --help and --layouts") {
  InstallerNode node;
  const auto version = node.run({"--version"});
  CHECK(version.exit_code == 0);
  CHECK(version.out.rfind("wincni-install (wincni ", 0) == 0);
  const auto help = node.run({"--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("WINCNI_SERVICE_CIDR") != std::string::npos);
  const auto layouts = node.run({"--layouts"});
  REQUIRE(layouts.exit_code == 0);
  const json table = json::parse(layouts.out);
  CHECK(table["containerd"] == json{{"bin", "C:\\opt\\cni\\bin"}, {"conf", "C:\\etc\\cni\\net.d"}});
  CHECK(table["dockershim"] == json{{"bin", "C:\\k\\cni"}, {"conf", "C:\\k\\cni\\config"}});
}

}  // namespace
}  // namespace wincni::test
