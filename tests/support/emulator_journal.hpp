#pragma once
// Reading the emulator's journal (WINCNI_EMULATOR_JOURNAL: one JSON line per
// HNS call) in tests: which calls a command made, under the names fault
// injection knows them by, and the order of its detaches and deletes.

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace wincni::test {

// The object an HNSCall path's first part names.
inline std::string journal_kind_of(const std::string& collection) {
  if (collection == "endpoints") return "Endpoint";
  if (collection == "namespaces") return "Namespace";
  return "Network";
}

// The name fault injection knows a journaled call by: the Hcn* or Hcs* verb
// without its prefix; for HNSCall, the operation the request amounts to (POST
// /endpoints/ is CreateEndpoint). "" for calls that cannot fail (Close).
inline std::string fault_name(const nlohmann::json& entry) {
  const std::string op = entry.at("op");
  if (op.starts_with("HcnClose") || op.starts_with("HcsClose")) return {};
  if (op.starts_with("Hcn") || op.starts_with("Hcs")) return op.substr(3);
  const nlohmann::json& input = entry.at("input");
  const std::string method = input.at("Method");
  const std::string path = input.at("Path");  // "/endpoints/<id>/attach"
  std::vector<std::string> parts;
  for (size_t start = 1; start < path.size();) {
    const size_t end = path.find('/', start);
    parts.push_back(path.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (parts.empty()) return {};
  if (parts[0] == "globals") return "GetVersion";
  const std::string kind = journal_kind_of(parts[0]);
  const bool has_id = parts.size() > 1 && !parts[1].empty();
  if (method == "GET") return has_id ? "Query" + kind + "Properties" : "Enumerate" + kind + "s";
  if (method == "DELETE") return "Delete" + kind;
  return has_id ? "Modify" + kind : "Create" + kind;
}

inline std::vector<nlohmann::json> journal_entries(const std::string& journal) {
  std::vector<nlohmann::json> entries;
  std::ifstream lines(journal);
  for (std::string line; std::getline(lines, line);) entries.push_back(nlohmann::json::parse(line));
  return entries;
}

// Each call that can fail, numbered per operation: what fault injection
// can target, call by call.
inline std::vector<std::pair<std::string, int>> faultable_calls(const std::string& journal) {
  std::vector<std::pair<std::string, int>> calls;
  std::map<std::string, int> seen;
  for (const nlohmann::json& entry : journal_entries(journal)) {
    const std::string op = fault_name(entry);
    if (!op.empty()) calls.emplace_back(op, ++seen[op]);
  }
  REQUIRE(calls.size() >= 3);
  return calls;
}

// "detach" and "delete" in the order the journal shows them, on either API.
inline std::vector<std::string> teardown_steps(const std::string& journal) {
  std::vector<std::string> steps;
  for (const nlohmann::json& entry : journal_entries(journal)) {
    const nlohmann::json& input = entry["input"];
    const std::string path = input.is_object() ? input.value("Path", "") : "";
    const std::string method = input.is_object() ? input.value("Method", "") : "";
    const bool hot_remove = entry["op"] == "HcsModifyComputeSystem" && input.dump().find("Remove") != std::string::npos;
    if (path.ends_with("/detach") || entry["op"] == "HcnModifyNamespace" || hot_remove) steps.push_back("detach");
    if (entry["op"] == "HcnDeleteEndpoint" || method == "DELETE") steps.push_back("delete");
  }
  return steps;
}

}  // namespace wincni::test
