// hnsctl audit: what a failed ADD or DEL leaves behind, and state that does
// not add up (audit_findings.hpp). Exit 1 when it finds anything but notes.

#include <algorithm>

#include "audit_findings.hpp"
#include "command_entry_points.hpp"

namespace wincni::hnsctl {

int audit_run(Context& context, const Args& args) {
  os::OptionSet options("hnsctl audit",
                        "Look for leaked or inconsistent HNS objects (endpoints attached to nothing, namespaces "
                        "that no longer hold their endpoints, ...); exit 1 when anything is found");
  options.flag("json", "Print the findings as a JSON array");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  const std::vector<AuditFinding> findings = audit_hns(context.client);
  if (parsed->given("json")) {
    hns::Json all = hns::Json::array();
    for (const auto& finding : findings) {
      all.push_back({{"Object", finding.object}, {"Problem", finding.problem}, {"Note", finding.note}});
    }
    print(context.out, "{}\n", all.dump(2));
  } else if (findings.empty()) {
    context.out.write("no problems found\n");
  } else {
    for (const auto& finding : findings) {
      print(context.out, "{}{}: {}\n", finding.note ? "note: " : "", finding.object, finding.problem);
    }
  }
  const bool problems = std::any_of(findings.begin(), findings.end(), [](const AuditFinding& f) { return !f.note; });
  return problems ? kFailed : kOk;
}

}  // namespace wincni::hnsctl
