#pragma once
// One thing `hnsctl doctor` found: what it is, why it is a leftover, and how
// to remove it when it is ours to remove.

#include <functional>
#include <string>

namespace wincni::hnsctl::doctor {

struct Leftover {
  std::string kind;     // "endpoint", "allocation", "scratch file", "runtime cache", "network"
  std::string object;   // "<endpoint> on <network>", the file's path, the config's path
  std::string problem;  // why it is a leftover
  std::string hns_id;   // an HNS object's ID; empty for files
  // Removes it; empty when doctor only reports it (not ours, or nothing it
  // may safely change). Returns false when it was already gone.
  std::function<bool()> repair;
  // Worth knowing, nothing to mend (AuditFinding::note): does not fail doctor.
  bool note = false;
};

}  // namespace wincni::hnsctl::doctor
