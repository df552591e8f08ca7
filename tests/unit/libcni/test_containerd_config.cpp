#include <doctest/doctest.h>

#include <map>
#include <string>

#include "wincni/cni/containerd_config.hpp"

using namespace wincni;

namespace {

const cni::ContainerdFolders kBuiltin = cni::containerd_builtin_folders(
    cni::Environment(std::map<std::string, std::string>{{"ProgramFiles", "C:\\Program Files"}}));

// The cni table as `containerd config default` prints it on Windows for
// containerd 2.1 (version 3), between two of its neighbours.
constexpr const char* kContainerd2Default = R"(version = 3
root = 'C:\ProgramData\containerd\root'

[plugins]
  [plugins.'io.containerd.cri.v1.runtime']
    enable_selinux = false

    [plugins.'io.containerd.cri.v1.runtime'.cni]
      bin_dir = ''
      bin_dirs = ['C:\Program Files\containerd\cni\bin']
      conf_dir = 'C:\Program Files\containerd\cni\conf'
      max_conf_num = 1
      setup_serially = false
      conf_template = ''

  [plugins.'io.containerd.gc.v1.scheduler']
    pause_threshold = 0.02
    schedule_delay = '0s'
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("containerd config: version 3 reads bin_dirs; the patch puts ours first and keeps every other byte") {
  const cni::ContainerdCniSettings settings = cni::read_containerd_cni_settings(kContainerd2Default, kBuiltin);
  CHECK(settings.config_version == 3);
  CHECK(settings.section == "plugins.'io.containerd.cri.v1.runtime'.cni");
  CHECK(settings.folders.bin_dirs == std::vector<std::string>{"C:\\Program Files\\containerd\\cni\\bin"});
  CHECK(settings.folders.conf_dir == "C:\\Program Files\\containerd\\cni\\conf");
  CHECK(settings.bin_dirs_from_file);
  CHECK(settings.conf_dir_from_file);

  const std::string patched =
      cni::patch_containerd_cni_folders(kContainerd2Default, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d");
  std::string expected = replaced(kContainerd2Default, "bin_dirs = ['C:\\Program Files\\containerd\\cni\\bin']",
                                  "bin_dirs = ['C:\\opt\\cni\\bin', 'C:\\Program Files\\containerd\\cni\\bin']");
  expected =
      replaced(expected, "conf_dir = 'C:\\Program Files\\containerd\\cni\\conf'", "conf_dir = 'C:\\etc\\cni\\net.d'");
  CHECK(patched == expected);
  // Read back, the check passes; a second patch changes nothing.
  const cni::ContainerdCniSettings after = cni::read_containerd_cni_settings(patched, kBuiltin);
  CHECK(cni::containerd_folder_mismatches(after, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d").empty());
  CHECK(cni::patch_containerd_cni_folders(patched, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d") == patched);
}

TEST_CASE("containerd config: version 2 (containerd 1.x) with CRLF line endings and escaped double quotes") {
  const std::string config =
      "version = 2\r\n"
      "\r\n"
      "[plugins]\r\n"
      "  [plugins.\"io.containerd.grpc.v1.cri\"]\r\n"
      "    sandbox_image = \"mcr.microsoft.com/oss/kubernetes/pause:3.9\"\r\n"
      "    [plugins.\"io.containerd.grpc.v1.cri\".cni]\r\n"
      "      bin_dir = \"C:\\\\Program Files\\\\containerd\\\\cni\\\\bin\"  # the default\r\n"
      "      conf_dir = \"C:\\\\Program Files\\\\containerd\\\\cni\\\\conf\"\r\n"
      "      max_conf_num = 1\r\n";
  const cni::ContainerdCniSettings settings = cni::read_containerd_cni_settings(config, kBuiltin);
  CHECK(settings.config_version == 2);
  CHECK(settings.section == "plugins.'io.containerd.grpc.v1.cri'.cni");
  CHECK(settings.folders.bin_dirs == std::vector<std::string>{"C:\\Program Files\\containerd\\cni\\bin"});
  const auto mismatches = cni::containerd_folder_mismatches(settings, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d");
  REQUIRE(mismatches.size() == 2);
  CHECK(mismatches[0] ==
        "containerd looks for CNI plugins in C:\\Program Files\\containerd\\cni\\bin "
        "(plugins.'io.containerd.grpc.v1.cri'.cni.bin_dir), not in C:\\opt\\cni\\bin");
  CHECK(mismatches[1] ==
        "containerd reads CNI configs from C:\\Program Files\\containerd\\cni\\conf "
        "(plugins.'io.containerd.grpc.v1.cri'.cni.conf_dir), not from C:\\etc\\cni\\net.d");

  const std::string patched = cni::patch_containerd_cni_folders(config, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d");
  std::string expected = replaced(config, "\"C:\\\\Program Files\\\\containerd\\\\cni\\\\bin\"", "'C:\\opt\\cni\\bin'");
  expected = replaced(expected, "\"C:\\\\Program Files\\\\containerd\\\\cni\\\\conf\"", "'C:\\etc\\cni\\net.d'");
  CHECK(patched == expected);
}

TEST_CASE("containerd config: without bin_dirs (containerd 2.0's file) bin_dir is set; with both, bin_dir wins") {
  const std::string config =
      "version = 3\n"
      "[plugins.\"io.containerd.cri.v1.runtime\".cni]\n"
      "    bin_dir = 'C:/k/cni'\n"
      "    conf_dir = 'C:/k/cni/config'\n";
  const cni::ContainerdCniSettings settings = cni::read_containerd_cni_settings(config, kBuiltin);
  CHECK(settings.folders.bin_dirs == std::vector<std::string>{"C:/k/cni"});
  const std::string patched = cni::patch_containerd_cni_folders(config, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d");
  CHECK(patched ==
        "version = 3\n"
        "[plugins.\"io.containerd.cri.v1.runtime\".cni]\n"
        "    bin_dir = 'C:\\opt\\cni\\bin'\n"
        "    conf_dir = 'C:\\etc\\cni\\net.d'\n");
  // containerd 2.1's file with a deprecated bin_dir beside bin_dirs: bin_dir
  // wins; the patch empties it and puts ours first in bin_dirs.
  const std::string both =
      "version = 3\n[plugins.'io.containerd.cri.v1.runtime'.cni]\n  bin_dir = 'C:/k/cni'\n  bin_dirs = []\n";
  CHECK(cni::read_containerd_cni_settings(both, kBuiltin).folders.bin_dirs == std::vector<std::string>{"C:/k/cni"});
  CHECK(cni::patch_containerd_cni_folders(both, "C:\\opt\\cni\\bin", "") ==
        "version = 3\n[plugins.'io.containerd.cri.v1.runtime'.cni]\n  bin_dir = ''\n"
        "  bin_dirs = ['C:\\opt\\cni\\bin', 'C:/k/cni']\n");
}

TEST_CASE("containerd config: keys left out are containerd's built-in folders; a missing table is appended") {
  const std::string config = "version = 3\n[plugins.'io.containerd.cri.v1.images']\n  snapshotter = 'windows'";
  const cni::ContainerdCniSettings settings = cni::read_containerd_cni_settings(config, kBuiltin);
  CHECK_FALSE(settings.bin_dirs_from_file);
  CHECK_FALSE(settings.conf_dir_from_file);
  CHECK(settings.folders.bin_dirs == kBuiltin.bin_dirs);
  const auto mismatches = cni::containerd_folder_mismatches(settings, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d");
  REQUIRE(mismatches.size() == 2);
  CHECK(mismatches[0].find("(containerd's built-in default)") != std::string::npos);

  CHECK(cni::patch_containerd_cni_folders(config, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d") ==
        config +
            "\n\n[plugins.'io.containerd.cri.v1.runtime'.cni]\n"
            "  bin_dir = 'C:\\opt\\cni\\bin'\n"
            "  conf_dir = 'C:\\etc\\cni\\net.d'\n");
  // No version: containerd 1.x's version 1 and its short plugin names.
  const std::string old = cni::patch_containerd_cni_folders("", "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d");
  CHECK(old == "\n[plugins.cri.cni]\n  bin_dir = 'C:\\opt\\cni\\bin'\n  conf_dir = 'C:\\etc\\cni\\net.d'\n");
  CHECK(cni::read_containerd_cni_settings(old, kBuiltin).section == "plugins.cri.cni");
}

TEST_CASE("containerd config: a header with no keys under it gets them, indented as the header") {
  const std::string config = "version = 2\n  [plugins.\"io.containerd.grpc.v1.cri\".cni]\n";
  CHECK(cni::patch_containerd_cni_folders(config, "/opt/cni/bin", "/etc/cni/net.d") ==
        "version = 2\n  [plugins.\"io.containerd.grpc.v1.cri\".cni]\n  bin_dir = '/opt/cni/bin'\n"
        "  conf_dir = '/etc/cni/net.d'\n");
  // The header on the last line, without a line ending.
  CHECK(cni::patch_containerd_cni_folders("version = 2\n[plugins.'io.containerd.grpc.v1.cri'.cni]", "/b", "/c") ==
        "version = 2\n[plugins.'io.containerd.grpc.v1.cri'.cni]\nbin_dir = '/b'\nconf_dir = '/c'\n");
}

TEST_CASE("containerd config: dotted keys and inline tables are read; edited in place, never added to") {
  const std::string dotted =
      "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\"]\n  cni.bin_dir = 'C:\\k\\cni'\n"
      "  cni.conf_dir = 'C:\\k\\cni\\config'\n";
  CHECK(cni::read_containerd_cni_settings(dotted, kBuiltin).folders.conf_dir == "C:\\k\\cni\\config");
  CHECK(cni::patch_containerd_cni_folders(dotted, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d") ==
        "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\"]\n  cni.bin_dir = 'C:\\opt\\cni\\bin'\n"
        "  cni.conf_dir = 'C:\\etc\\cni\\net.d'\n");
  const std::string inline_table =
      "version = 3\n[plugins.'io.containerd.cri.v1.runtime']\n  cni = { conf_dir = 'C:\\k\\cni\\config' }\n";
  CHECK(cni::read_containerd_cni_settings(inline_table, kBuiltin).folders.conf_dir == "C:\\k\\cni\\config");
  CHECK_THROWS_WITH_AS(cni::patch_containerd_cni_folders(inline_table, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d"),
                       "plugins.'io.containerd.cri.v1.runtime'.cni is written with dotted keys or as an inline "
                       "table, which wincni does not edit: set bin_dir = 'C:\\opt\\cni\\bin' there by hand",
                       cni::ContainerdConfigError);
}

TEST_CASE("containerd config: the rest of TOML is stepped over, a byte-order mark kept") {
  const std::string config =
      "\xEF\xBB\xBF# written by PowerShell 5\nversion = 3\n"
      "title = \"\"\"a\nmulti-line \\\n   string with ] and [x]\"\"\"\n"
      "raw = '''\n[not.a.table]\n'''\n"
      "when = 1979-05-27 07:32:00Z\n"
      "nested = [[1, 2], ['a', \"b\"], { x = 1 }]  # comment\n"
      "[[array.of.tables]]\n  name = \"x\"\n"
      "[plugins.'io.containerd.cri.v1.runtime'.cni]\n"
      "  bin_dirs = [\n    'C:\\opt\\cni\\bin', # ours\n    \"C:\\\\other\",\n  ]\n"
      "  conf_dir = \"C:\\u005Cetc\\\\cni\\\\net.d\"\n";
  const cni::ContainerdCniSettings settings = cni::read_containerd_cni_settings(config, kBuiltin);
  CHECK(settings.folders.bin_dirs == std::vector<std::string>{"C:\\opt\\cni\\bin", "C:\\other"});
  CHECK(settings.folders.conf_dir == "C:\\etc\\cni\\net.d");
  const std::string patched = cni::patch_containerd_cni_folders(config, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d");
  CHECK(patched.starts_with("\xEF\xBB\xBF# written by PowerShell 5\n"));
  CHECK(patched.find("  bin_dirs = ['C:\\opt\\cni\\bin', 'C:\\other']\n") != std::string::npos);
}

TEST_CASE("containerd config: what is not TOML, or not containerd's, is refused with its line") {
  const auto refusal = [](const std::string& config) {
    try {
      cni::read_containerd_cni_settings(config, kBuiltin);
    } catch (const cni::ContainerdConfigError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  CHECK(refusal("version = 2\n[plugins.'io.containerd.grpc.v1.cri'.cni]\n  bin_dir = \"C:\\opt\\cni\\bin\"\n") ==
        "line 3: the escape \\o (write Windows paths in single quotes, or with \\\\)");
  CHECK(refusal("version = 3\nroot = 'C:\\x\n") == "line 2: an unterminated string");
  CHECK(refusal("version = 4\n") ==
        "line 1: version 4: containerd's config versions are 1, 2 (containerd 1.x) and 3 (containerd 2.x)");
  CHECK(refusal("version = 3\n[plugins.'io.containerd.cri.v1.runtime'.cni]\nbin_dirs = 'C:\\opt'\n") ==
        "line 3: plugins.'io.containerd.cri.v1.runtime'.cni.bin_dirs is not an array of strings");
  CHECK(refusal("version = 2\n[plugins.'io.containerd.grpc.v1.cri'.cni]\nconf_dir = 'a'\nconf_dir = 'b'\n") ==
        "line 4: plugins.'io.containerd.grpc.v1.cri'.cni.conf_dir is set twice (also on line 3)");
  CHECK(refusal("version = 3\n[plugins\n") == "line 2: a table header without its closing bracket");
  CHECK(refusal("version = 3\nx = [1, 2\n") == "line 3: an array without its closing bracket");
  CHECK(refusal("version = 3\nx = " + std::string(100000, '[')) ==
        "line 2: arrays or inline tables nested deeper than 64 levels");
  CHECK(refusal("version = 3\nx = " + std::string(60, '[') + std::string(60, ']') + "\n") == "accepted");
  CHECK(refusal("version = 3\nx = 1 y\n") == "accepted");  // a scalar runs to the line's end: not checked

  // Every entry keeps its whole key path: a long header and many keys
  // under it once asked for gigabytes from 100 KiB (issue 47). Refused at
  // the part or the key past the cap, at once.
  std::string header = "[a";
  for (int i = 0; i < 64; ++i) header += ".a";
  CHECK(refusal("version = 3\n" + header + "]\nx = 1\n") == "line 2: a key of more than 64 parts");
  std::string deep_table = "[a";
  for (int i = 1; i < 60; ++i) deep_table += ".a";
  CHECK(refusal("version = 3\n" + deep_table + "]\nb.c.d.e.f = 1\n") ==
        "line 3: a key of more than 64 parts with its table's");
  std::string many = "version = 3\n[" + deep_table.substr(1) + "]\n";
  for (int i = 0; i < 20000; ++i) many += "x=1\n";
  CHECK(refusal(many) == "line 10002: more than 10000 keys");
  std::string tables = "version = 3\n";
  for (int i = 0; i < 20000; ++i) tables += "[[t]]\n";
  CHECK(refusal(tables) == "line 10002: more than 10000 tables");
}

TEST_CASE("containerd config: folders compare as the OS resolves them") {
  using cni::PathFlavor;
  CHECK(cni::same_folder("c:/opt/cni/bin/", "C:\\opt\\cni\\bin", PathFlavor::kWindows));
  CHECK(cni::same_folder("C:\\opt\\\\cni\\bin", "C:\\OPT\\cni\\bin\\\\", PathFlavor::kWindows));
  CHECK(cni::same_folder("C:\\", "c:/", PathFlavor::kWindows));
  CHECK_FALSE(cni::same_folder("C:\\opt\\cni\\bin", "D:\\opt\\cni\\bin", PathFlavor::kWindows));
  CHECK_FALSE(cni::same_folder("\\\\server\\share", "\\server\\share", PathFlavor::kWindows));
  CHECK(cni::same_folder("/etc/cni/net.d", "C:\\etc\\cni\\net.d", PathFlavor::kWindows));
  CHECK(cni::same_folder("d:\\etc\\cni\\net.d", "\\etc\\cni\\net.d", PathFlavor::kWindows));
  CHECK_FALSE(cni::same_folder("/etc/cni/net.d", "C:\\etc\\cni", PathFlavor::kWindows));
  CHECK(cni::same_folder("/opt/cni/bin/", "/opt//cni/bin", PathFlavor::kPosix));
  CHECK_FALSE(cni::same_folder("/opt/CNI/bin", "/opt/cni/bin", PathFlavor::kPosix));
  CHECK(cni::same_folder("/", "/", PathFlavor::kPosix));
}
