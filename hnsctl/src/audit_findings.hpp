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
};

std::vector<AuditFinding> audit_hns(hns::HnsClient& client);
// The same, from a listing already made; `client` reads the v1 attachments
// the listing does not show.
std::vector<AuditFinding> audit_hns(hns::HnsClient& client, const HnsListing& hns);

}  // namespace wincni::hnsctl
