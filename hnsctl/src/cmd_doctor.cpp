// hnsctl doctor: what runtimes leave behind after crashes and reboots, found
// by cross-checking HNS's endpoints, host-local's store and flannel's
// scratch folder against the runtime's result cache, and the node's configs
// against its networks; with --apply, what is ours is removed
// (docs/hnsctl.md, "doctor"). Runtimes never send GC (containerd does not),
// so nothing else ever collects these.

#include <chrono>

#include <fmt/format.h>

#include "audit_findings.hpp"
#include "command_entry_points.hpp"
#include "doctor/config_survey.hpp"
#include "doctor/containerd_survey.hpp"
#include "doctor/lost_endpoints.hpp"
#include "doctor/node_survey.hpp"
#include "doctor/repair_journal.hpp"
#include "doctor/runtime_cache.hpp"
#include "pods_data_dir.hpp"
#include "wincni/cni/containerd_config.hpp"
#include "wincni/cni/env.hpp"
#include "wincni/cni/log.hpp"
#include "wincni/engine/repair_journal.hpp"
#include "wincni/flannel/flannel_config.hpp"

namespace wincni::hnsctl {

namespace {

using doctor::Leftover;

enum class Outcome { Repaired, AlreadyGone, Failed, Reported, Noted, Held };

struct Treated {
  const Leftover* leftover;
  Outcome outcome;
  std::string detail;  // why a repair failed, or why it was held back
};

const char* outcome_text(Outcome outcome) {
  switch (outcome) {
    case Outcome::Repaired:
      return "removed";
    case Outcome::AlreadyGone:
      return "already gone";
    case Outcome::Failed:
      return "FAILED";
    case Outcome::Reported:
      return "report only";
    case Outcome::Noted:
      return "note";
    case Outcome::Held:
      return "not removed";
  }
  return "";
}

// What --apply removes goes to the plugins' repair journal too, beside what
// their own repairs removed.
Treated treat(const Leftover& leftover, bool apply, const std::string& hold_reason, const cni::Logger& journal) {
  if (leftover.note) return {&leftover, Outcome::Noted, ""};
  if (!leftover.repair) return {&leftover, Outcome::Reported, ""};
  if (!hold_reason.empty()) return {&leftover, Outcome::Held, hold_reason};
  if (!apply) return {&leftover, Outcome::Held, "run with --apply to remove it"};
  try {
    if (!leftover.repair()) return {&leftover, Outcome::AlreadyGone, ""};
    journal.repair("removed {} {}{}: {}", leftover.kind, leftover.object,
                   leftover.hns_id.empty() ? "" : " (" + leftover.hns_id + ")", leftover.problem);
    return {&leftover, Outcome::Repaired, ""};
  } catch (const std::exception& error) {
    return {&leftover, Outcome::Failed, error.what()};
  }
}

std::vector<Leftover> unreadable_entries(const doctor::RuntimeCache& cache) {
  std::vector<Leftover> found;
  for (const std::string& file : cache.unreadable) {
    found.push_back({"runtime cache", file, "not a CNI result cache entry this tool can read", {}, {}});
  }
  return found;
}

}  // namespace

// The journal's newest lines doctor shows; the whole file is at most 256 KiB.
constexpr std::size_t kRepairsShown = 20;

int doctor_run(Context& context, const Args& args) {
  os::OptionSet options(
      "hnsctl doctor",
      "Find what pods that are gone left behind: wincni's endpoints whose pod the runtime no longer has or whose "
      "namespace is gone, host-local allocations and flannel scratch files of such pods, and configs whose network "
      "is missing or of the wrong type, or that containerd does not load. With --apply, remove the endpoints, "
      "allocations and files that are wincni's "
      "(never flanneld's endpoints, another network's, the host's or kube-proxy's source VIP). Exit 1 while anything "
      "remains.");
  options.value("cache-dir", "the runtime's CNI result cache (libcni's)", kDefaultCacheDir)
      .value("data-dir", "host-local's dataDir", kDefaultIpamDir)
      .value("flannel-dir", "flannel's dataDir", flannel::kDefaultDataDir)
      .value("conf-dir", "the CNI config folder", kDefaultConfDir)
      .value("grace", "files younger than this many seconds belong to an ADD that may still run: left alone", "120")
      .value("repair-journal", "the plugins' record of what their repairs deleted or moved, shown",
             engine::repair_journal_path(cni::Environment::from_process()))
      .value("containerd-config",
             "containerd's config.toml, checked to read configs from --conf-dir and to find the plugins they name "
             "(none: not checked)",
             doctor::containerd_config_option_default())
      .flag("apply", "remove what is wincni's")
      .flag("json", "print the findings as JSON");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  // A week at most: any longer is a typo, and the clock arithmetic stays far
  // from overflowing.
  const std::uint64_t grace = number_option(*parsed, "grace");
  if (grace > 7 * 24 * 3600) throw UsageError(fmt::format("--grace {}: a number of seconds, a week at most", grace));

  const doctor::RuntimeCache cache = doctor::read_runtime_cache(parsed->text("cache-dir"));
  const doctor::ConfigSurvey configs = doctor::survey_configs(context, parsed->text("conf-dir"));
  const std::string containerd_config = parsed->text("containerd-config");
  const std::vector<Leftover> containerd = doctor::survey_containerd(
      containerd_config == "none" ? "" : containerd_config, parsed->given("containerd-config"),
      cni::containerd_builtin_folders(cni::Environment::from_process()), parsed->text("conf-dir"), configs.plugins);
  const doctor::NodeFolders folders{parsed->text("data-dir"), parsed->text("flannel-dir"), configs.networks};
  const auto client = std::make_shared<hns::HnsClient>(borrowed_api(context));
  const HnsListing hns = list_hns(*client);
  const doctor::Survey survey =
      doctor::survey_node(client, hns, folders, cache.containers, std::chrono::seconds(grace));

  const std::vector<Leftover> unreadable = unreadable_entries(cache);
  const std::vector<Leftover> lost = doctor::lost_endpoints(hns, cache, configs.networks, std::chrono::seconds(grace));
  // Which pods live is only known when every entry could be read, and a
  // cache that lists nobody while HNS shows pods of ours alive is the wrong
  // folder or an emptied one, not a node without pods.
  std::string hold_reason;
  if (!unreadable.empty()) {
    hold_reason = "the runtime's cache has entries that cannot be read: remove nothing";
  } else if (cache.containers.empty() && !survey.occupied.empty()) {
    hold_reason = fmt::format(
        "the runtime's cache ({}) lists no pod, while {} sandboxes of wincni's endpoints are "
        "attached to namespaces or containers that exist: is --cache-dir right? remove nothing",
        cache.folder, survey.occupied.size());
  }

  const bool apply = parsed->given("apply");
  if (apply && !hold_reason.empty()) print(context.err, "hnsctl doctor: {}\n", hold_reason);
  cni::LogSettings journal_settings;
  journal_settings.repair_journal = parsed->text("repair-journal");
  cni::Logger journal(journal_settings, "hnsctl", nullptr);
  journal.set_invocation("doctor", "");
  std::vector<Treated> treated;
  for (const std::vector<Leftover>* list : {&survey.leftovers, &lost, &configs.problems, &containerd, &unreadable}) {
    for (const Leftover& leftover : *list) treated.push_back(treat(leftover, apply, hold_reason, journal));
  }
  // What HNS itself says does not add up, once the repairs are done: a
  // leftover doctor removed is no longer there to report.
  std::vector<Leftover> inconsistencies;
  // An endpoint of ours already listed is not listed again.
  const auto listed = [&survey](const AuditFinding& finding) {
    return std::any_of(survey.leftovers.begin(), survey.leftovers.end(), [&finding](const Leftover& leftover) {
      return !leftover.hns_id.empty() && (finding.object.find(leftover.hns_id) != std::string::npos ||
                                          finding.problem.find(leftover.hns_id) != std::string::npos);
    });
  };
  // A run that changed nothing audits the listing its surveys read.
  const bool changed =
      std::any_of(treated.begin(), treated.end(), [](const Treated& t) { return t.outcome == Outcome::Repaired; });
  for (const AuditFinding& finding : changed ? audit_hns(context.client) : audit_hns(context.client, hns)) {
    if (!listed(finding)) inconsistencies.push_back({"hns", finding.object, finding.problem, {}, {}, finding.note});
  }
  for (const Leftover& leftover : inconsistencies) treated.push_back(treat(leftover, apply, hold_reason, journal));
  const bool remains = std::any_of(treated.begin(), treated.end(), [](const Treated& t) {
    return t.outcome != Outcome::Repaired && t.outcome != Outcome::AlreadyGone && t.outcome != Outcome::Noted;
  });
  const std::vector<std::string> repairs = doctor::recent_repairs(parsed->text("repair-journal"), kRepairsShown);

  if (parsed->given("json")) {
    hns::Json found = hns::Json::array();
    for (const Treated& t : treated) {
      hns::Json entry = {{"Kind", t.leftover->kind},
                         {"Object", t.leftover->object},
                         {"ID", t.leftover->hns_id},
                         {"Problem", t.leftover->problem},
                         {"Ours", static_cast<bool>(t.leftover->repair)},
                         {"Outcome", outcome_text(t.outcome)}};
      if (!t.detail.empty()) entry["Detail"] = t.detail;
      found.push_back(std::move(entry));
    }
    const hns::Json report = {{"Cache", cache.folder},
                              {"Pods", cache.containers.size()},
                              {"Checked",
                               {{"Endpoints", survey.checked.endpoints},
                                {"Allocations", survey.checked.allocations},
                                {"ScratchFiles", survey.checked.scratch_files},
                                {"Configs", configs.configs}}},
                              {"InFlight", survey.in_flight},
                              {"HeldByOthers", survey.held_by_others},
                              {"Findings", found},
                              {"Repairs", repairs}};
    print(context.out, "{}\n", report.dump(2));
  } else {
    print(context.out,
          "{} pods in {}; checked {} of wincni's endpoints, {} allocations, {} scratch files, {} configs\n",
          cache.containers.size(), cache.folder, survey.checked.endpoints, survey.checked.allocations,
          survey.checked.scratch_files, configs.configs);
    if (!survey.in_flight.empty()) {
      print(context.out, "{} sandboxes left alone: files younger than {} s (an ADD may be running)\n",
            survey.in_flight.size(), grace);
    }
    for (const std::string& held : survey.held_by_others) print(context.out, "allocation {}\n", held);
    for (const Treated& t : treated) {
      print(context.out, "{} {}: {} [{}{}]\n", t.leftover->kind, t.leftover->object, t.leftover->problem,
            outcome_text(t.outcome), t.detail.empty() ? "" : ": " + t.detail);
    }
    if (treated.empty()) context.out.write("nothing left behind\n");
    if (!repairs.empty()) {
      print(context.out, "the last {} repairs the plugins made ({}):\n", repairs.size(),
            parsed->text("repair-journal"));
      for (const std::string& line : repairs) print(context.out, "  {}\n", line);
    }
  }
  return remains ? kFailed : kOk;
}

}  // namespace wincni::hnsctl
