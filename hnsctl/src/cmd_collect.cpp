// hnsctl collect: one zip with what a maintainer asks for first when a
// Windows node's pod networking fails (docs/hnsctl.md, "collect"), after
// Microsoft's collectlogs.ps1: HNS's objects in both APIs, hnsctl's own
// caps, audit and doctor (which changes nothing without --apply), the CNI
// configs, the runtime's result cache, host-local's store, flannel's files,
// wincni's logs, containerd's config, the binaries' versions and, on
// Windows, HNS's event logs. Nothing is deleted or changed on the node;
// secrets are kept out (collect/secret_redaction.hpp).

#include <algorithm>
#include <ctime>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "collect/base64.hpp"
#include "collect/bundle.hpp"
#include "command_entry_points.hpp"
#include "doctor/containerd_survey.hpp"
#include "pods_data_dir.hpp"
#include "wincni/cni/build_identity.hpp"
#include "wincni/cni/config_file_names.hpp"
#include "wincni/cni/env.hpp"
#include "wincni/cni/json_depth.hpp"
#include "wincni/cni/log.hpp"
#include "wincni/cni/plugin_path.hpp"
#include "wincni/engine/repair_journal.hpp"
#include "wincni/flannel/flannel_config.hpp"
#include "wincni/os/private_files.hpp"
#include "wincni/os/process.hpp"
#include "wincni/os/process_id.hpp"
#include "wincni/os/program_files.hpp"

namespace wincni::hnsctl {

namespace {

namespace files = os::private_files;

constexpr std::size_t kMaxConfigBytes = 1 << 20;
constexpr std::size_t kMaxLogBytes = 8 << 20;
constexpr std::size_t kMaxStoreFileBytes = 64 << 10;

bool any_file(std::string_view) { return true; }

// libcni's result cache keeps the network config base64-encoded ("config",
// a Go []byte): put in the bundle decoded, as JSON when it is, so that its
// secrets meet the redaction like every other text and a maintainer reads
// it. An entry that is not JSON is taken as it is.
std::string opened_cache_entry(std::string_view text) {
  // Text nested deeper than any cache entry is taken as it is: dumping it
  // again would recurse level by level (json_depth.hpp).
  if (cni::too_deeply_nested(text)) return std::string(text);
  nlohmann::json entry = nlohmann::json::parse(text, nullptr, false);
  if (!entry.is_object()) return std::string(text);
  const auto config = entry.find("config");
  if (config == entry.end() || !config->is_string()) return std::string(text);
  const auto decoded = collect::base64_decode(config->get<std::string>());
  if (!decoded) {
    *config = "<left out by hnsctl collect: not base64>";
  } else {
    const nlohmann::json parsed = cni::too_deeply_nested(*decoded) ? nlohmann::json(nlohmann::json::value_t::discarded)
                                                                   : nlohmann::json::parse(*decoded, nullptr, false);
    *config = parsed.is_discarded() ? nlohmann::json(*decoded) : parsed;
  }
  return entry.dump(2);
}
bool config_file(std::string_view name) { return cni::is_config_file_name(name); }

// "20261128-231500", for the default file name.
std::string utc_stamp(std::time_t when) {
  const std::tm parts = *std::gmtime(&when);  // hnsctl runs one thread
  return fmt::format("{:04}{:02}{:02}-{:02}{:02}{:02}", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                     parts.tm_hour, parts.tm_min, parts.tm_sec);
}

// One of hnsctl's own commands, run in this process, as its transcript.
std::string transcript(Context& context, const Args& args) {
  os::StringSink out;
  os::StringSink err;
  Context captured{context.client, context.emulated, out, err, nullptr};
  int code = kFailed;
  try {
    code = run_hnsctl(args, captured);
  } catch (const std::exception& error) {
    err.text += error.what();
  }
  std::string command = "hnsctl";
  for (const std::string& arg : args) command += " " + arg;
  return fmt::format("$ {}\nexit status {}\n--- stdout\n{}--- stderr\n{}", command, code, out.text, err.text);
}

// What HNS v1 keeps that hnsctl has no command for, as HNSCall answers it.
std::string v1_listing(Context& context, std::string_view path) {
  const hns::HnsCallReply reply = context.client.api().hns_call("GET", path, "");
  return fmt::format("HNSCall GET {}\nHRESULT 0x{:08X}\n{}\n", path, static_cast<std::uint32_t>(reply.hr),
                     reply.response);
}

// `--version` of each of the suite's binaries in `bin_dir`, and every file
// there with its size: which build the node runs, and what else the runtime
// could start.
std::string binary_versions(const std::string& bin_dir) {
  std::string text = fmt::format("{}\n\n", bin_dir);
  std::vector<files::DirEntry> entries;
  try {
    entries = files::list_directory(bin_dir);
  } catch (const std::exception& error) {
    return text + fmt::format("not listed: {}\n", error.what());
  }
  std::sort(entries.begin(), entries.end(),
            [](const files::DirEntry& a, const files::DirEntry& b) { return a.name < b.name; });
  for (const files::DirEntry& entry : entries) {
    const std::string path = files::join(bin_dir, entry.name);
    std::string size = "not a file";
    if (entry.regular_file) {
      try {
        const auto content = files::read_file(path);
        size = content ? fmt::format("{} bytes", content->size()) : "gone";
      } catch (const std::exception& error) {
        size = error.what();
      }
    }
    text += fmt::format("{}  {}\n", entry.name, size);
  }
  text += "\n";
  for (const char* stem : {"flannel", "win-bridge", "win-overlay", "host-local", "hnsctl", "wincni-install"}) {
    const std::string path = files::join(bin_dir, std::string(stem) + std::string(cni::kExecutableSuffix));
    if (!files::is_regular_file(path) || files::is_link(path)) continue;
    os::ProcessSpec spec;
    spec.program = path;
    spec.args = {"--version"};
    spec.env = cni::Environment::from_process().to_list();
    spec.timeout = std::chrono::seconds(10);
    try {
      const os::ProcessOutcome outcome = os::run_process(spec);
      text += fmt::format("$ {} --version\n{}{}", path, outcome.out, outcome.timed_out ? "(no answer in 10 s)\n" : "");
    } catch (const std::exception& error) {
      text += fmt::format("$ {} --version\nnot started: {}\n", path, error.what());
    }
  }
  return text;
}

// HNS's own event logs, as wevtutil prints them (Windows only).
void add_event_logs(collect::Bundle& bundle) {
  if (cni::kNativePathFlavor != cni::PathFlavor::kWindows) return;
  const std::string wevtutil =
      files::join(cni::Environment::from_process().get_or("SystemRoot", "C:\\Windows"), "System32\\wevtutil.exe");
  for (const char* channel :
       {"Microsoft-Windows-Host-Network-Service-Admin", "Microsoft-Windows-Host-Network-Service-Operational"}) {
    os::ProcessSpec spec;
    spec.program = wevtutil;
    // The newest 2000 events, newest first, as text.
    spec.args = {"qe", channel, "/c:2000", "/rd:true", "/f:text"};
    spec.env = cni::Environment::from_process().to_list();
    spec.timeout = std::chrono::seconds(60);
    const std::string name = fmt::format("windows/{}.txt", channel);
    try {
      const os::ProcessOutcome outcome = os::run_process(spec);
      if (outcome.exit_code != 0 || outcome.timed_out) {
        bundle.leave_out(fmt::format("{}: wevtutil exited {}{}: {}", channel, outcome.exit_code,
                                     outcome.timed_out ? " (timed out)" : "", outcome.err));
      }
      if (!outcome.out.empty()) bundle.add_text(name, outcome.out);
    } catch (const std::exception& error) {
      bundle.leave_out(fmt::format("{}: {}", channel, error.what()));
    }
  }
}

}  // namespace

int collect_run(Context& context, const Args& args) {
  const cni::Environment env = cni::Environment::from_process();
  const std::time_t now = std::time(nullptr);
  os::OptionSet options("hnsctl collect",
                        "Write one zip with what a maintainer needs to see why pods fail on this node: HNS's "
                        "networks, endpoints, namespaces, load balancers and policy lists (HCN and HNS v1), caps, "
                        "audit and doctor (nothing is repaired), the CNI configs, the runtime's result cache, "
                        "host-local's store, flannel's files, wincni's logs, containerd's config, the binaries' "
                        "versions and, on Windows, HNS's event logs. Values that look like secrets (tokens, "
                        "passwords, keys) are replaced by <redacted>; README.txt in the zip lists what is in it "
                        "and what was left out.");
  options.value("out", "the zip to write (default wincni-collect-<UTC time>.zip here)")
      .value("conf-dir", "the CNI config folder", kDefaultConfDir)
      .value("cache-dir", "the runtime's CNI result cache (libcni's)", kDefaultCacheDir)
      .value("data-dir", "host-local's dataDir", kDefaultIpamDir)
      .value("flannel-dir", "flannel's dataDir", flannel::kDefaultDataDir)
      .value("subnet-file", "flanneld's subnet.env", flannel::kDefaultSubnetFile)
      .value("log-file", "wincni's log (none: not taken)",
             cni::kDefaultLogFile.empty() ? std::string("none") : std::string(cni::kDefaultLogFile))
      .value("repair-journal", "the plugins' record of what their repairs deleted or moved",
             engine::repair_journal_path(env))
      .value("bin-dir", "the runtime's CNI bin folder (default: the folder hnsctl runs from)")
      .value("containerd-config", "containerd's config.toml (none: not taken)",
             doctor::containerd_config_option_default());
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  const std::string out =
      parsed->given("out") ? parsed->text("out") : fmt::format("wincni-collect-{}.zip", utc_stamp(now));
  // Refused before anything is read or started: a run that cannot write
  // its zip should not first spend a minute collecting it. The exclusive
  // publish at the end still refuses a name taken meanwhile.
  if (files::is_link(out) || files::is_regular_file(out) || files::is_directory(out)) {
    throw std::runtime_error(fmt::format("{} exists: collect never writes over a file; give another --out", out));
  }
  const std::string conf_dir = parsed->text("conf-dir");
  const std::string containerd_config = parsed->text("containerd-config");

  collect::Bundle bundle(now);
  const std::vector<std::pair<const char*, Args>> commands = {
      {"version", {"version"}},
      {"caps", {"caps"}},
      {"networks", {"network", "list", "--json"}},
      {"networks-v1", {"network", "list", "--v1"}},
      {"endpoints", {"endpoint", "list", "--json"}},
      {"endpoints-v1", {"endpoint", "list", "--v1"}},
      {"namespaces", {"namespace", "list", "--json"}},
      {"load-balancers", {"lb", "list", "--json"}},
      {"audit", {"audit"}},
      {"doctor",
       {"doctor", "--json", "--conf-dir", conf_dir, "--cache-dir", parsed->text("cache-dir"), "--data-dir",
        parsed->text("data-dir"), "--flannel-dir", parsed->text("flannel-dir"), "--repair-journal",
        parsed->text("repair-journal"), "--containerd-config", containerd_config}},
  };
  for (const auto& [name, command] : commands) {
    bundle.add_text(fmt::format("hnsctl/{}.txt", name), transcript(context, command));
  }
  bundle.add_text("hns-v1/policylists.txt", v1_listing(context, "/policylists/"));
  bundle.add_folder("cni/conf", conf_dir, config_file, 0, kMaxConfigBytes);
  bundle.add_folder("cni/results", parsed->text("cache-dir"), any_file, 0, kMaxConfigBytes, opened_cache_entry);
  bundle.add_folder("host-local", parsed->text("data-dir"), any_file, 1, kMaxStoreFileBytes);
  bundle.add_folder("flannel/data", parsed->text("flannel-dir"), any_file, 0, kMaxConfigBytes);
  bundle.add_file("flannel/subnet.env", parsed->text("subnet-file"), kMaxStoreFileBytes);
  if (const std::string log = parsed->text("log-file"); log != "none") {
    bundle.add_file("logs/wincni.log", log, kMaxLogBytes);
    bundle.add_file("logs/wincni.log.1", log + ".1", kMaxLogBytes);
  }
  bundle.add_file("logs/repair-journal.log", parsed->text("repair-journal"), kMaxLogBytes);
  if (containerd_config != "none") bundle.add_file("containerd/config.toml", containerd_config, kMaxConfigBytes);
  bundle.add_text("binaries.txt", binary_versions(parsed->given("bin-dir") ? parsed->text("bin-dir")
                                                                           : os::program_files::own_directory()));
  add_event_logs(bundle);

  const std::string header = fmt::format(
      "wincni support bundle, written by {} at {} UTC.\n"
      "Made without changing anything on the node: doctor ran without --apply.\n"
      "Secrets: only files that hold none by design are taken (CNI configs by their extension, the result "
      "cache, host-local's store, flannel's files, logs, containerd's config; never a kubeconfig), and every "
      "text passed a redaction of values after keys naming a secret (token, password, secret, bearer, "
      "client-key-data, credentials, auth) and of PEM private keys. Look before you share it.\n",
      cni::version_line("hnsctl"), utc_stamp(now));
  const std::string archive = bundle.finish(header);
  const files::FolderAndName where = files::split_last(out);
  // Never over a file that is there: --out could name a config.
  if (!files::publish_file_exclusive(where.folder, where.name,
                                     fmt::format("{}.new-{}", where.name, os::current_process_id()), archive)) {
    throw std::runtime_error(fmt::format("{} exists: collect never writes over a file; give another --out", out));
  }
  print(context.out, "wrote {}: {} bytes; {} values that looked like secrets were redacted (see README.txt in it)\n",
        out, archive.size(), bundle.redacted_values());
  return kOk;
}

}  // namespace wincni::hnsctl
