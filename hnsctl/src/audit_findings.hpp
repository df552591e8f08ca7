#pragma once
// What `hnsctl audit` looks for (see audit_findings.cpp): HNS objects that do
// not add up. `hnsctl doctor` reports the same after its own repairs.

#include <string>
#include <vector>

#include "hns_listing.hpp"
#include "wincni/hns/client.hpp"

namespace wincni::hnsctl {

struct AuditFinding {
  std::string object;
  std::string problem;
  // Worth knowing, but nothing on the node to mend: kube-proxy's load
  // balancer that its next sync replaces, what could not be read. Notes do
  // not make audit or doctor exit 1.
  bool note = false;
};

std::vector<AuditFinding> audit_hns(hns::HnsClient& client);
// The same, from a listing already made; `client` reads the v1 attachments
// the listing does not show.
std::vector<AuditFinding> audit_hns(hns::HnsClient& client, const HnsListing& hns);

}  // namespace wincni::hnsctl
