#pragma once
// What HnsClient's calls share, in client.cpp (the generic HCN operations),
// client_hcn.cpp (networks, endpoints, namespaces) and client_v1.cpp
// (HNSCall): how an HCN reply becomes an outcome, how objects are named in
// messages, and the shapes of enumerations and the version.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hns_answer.hpp"
#include "wincni/hns/client.hpp"

namespace wincni::hns::client_calls {

CallOutcome outcome_of(const HcnReply& reply, std::string operation);
// "HcnCreateEndpoint", "HcnEnumerateNetworks", "HcnQueryNamespaceProperties".
std::string hcn_name(std::string_view verb, HcnObject kind);
// Open, run `use` on the handle, close: one unit, so that a timeout never
// leaves an open handle behind in the caller.
CallOutcome with_handle(HcnApi& api, HcnObject kind, const Guid& id, const std::function<CallOutcome(HcnHandle)>& use);
// `endpoint "x"` and `endpoint <ID>`, as messages name objects.
std::string quoted(std::string_view kind, std::string_view name);
std::string named(std::string_view kind, const Guid& id);
// An enumeration's answer: a list of GUID strings.
std::vector<Guid> ids_in(const Json& answer);
HnsVersion version_in(const Json& answer);

template <class T>
std::optional<T> read_if_there(const std::optional<HnsAnswer>& answer) {
  if (!answer) return std::nullopt;
  return answer->read<T>();
}

}  // namespace wincni::hns::client_calls
