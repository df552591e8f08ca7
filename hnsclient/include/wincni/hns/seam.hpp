#pragma once
// The seam: everything that touches the host goes through this interface,
// which mirrors computenetwork.dll (HCN, "API v2") and vmcompute.dll's
// HNSCall (HNS "API v1") call for call. JSON text in and out, UTF-8 here;
// the win32 layer converts to and from UTF-16.
//
// Mapping (X = Network | Endpoint | Namespace, chosen by HcnObject):
//   HcnEnumerateXs(Query, &Result, &ErrorRecord)        -> enumerate
//   HcnCreateX(Id, Settings, &Handle, &ErrorRecord)     -> create (parent unused)
//   HcnCreateEndpoint(Network, Id, Settings, ...)       -> create (parent = network handle)
//   HcnOpenX(Id, &Handle, &ErrorRecord)                 -> open
//   HcnModifyX(Handle, Settings, &ErrorRecord)          -> modify
//   HcnQueryXProperties(Handle, Query, &Props, &Error)  -> query_properties
//   HcnDeleteX(Id, &ErrorRecord)                        -> remove
//   HcnCloseX(Handle)                                   -> close
//   HNSCall(Method, Path, Request, &Response)           -> hns_call
//
// and vmcompute.dll's compute-system calls (HCS), through which HNS v1
// endpoints reach running dockershim containers (docs/engine.md):
//   HcsCreateComputeSystem(Id, Configuration, Identity, &System, &Result) -> hcs_create
//   HcsOpenComputeSystem(Id, &System, &Result)                   -> hcs_open
//   HcsGetComputeSystemProperties(System, Query, &Props, &Result) -> hcs_properties
//   HcsModifyComputeSystem(System, Configuration, &Result)       -> hcs_modify
//   HcsTerminateComputeSystem(System, Options, &Result)          -> hcs_terminate
//   HcsCloseComputeSystem(System)                                -> hcs_close
// HCS's Result is its error record: {"Error":<HRESULT as a signed
// integer>,"ErrorMessage":"<text>"} on failure, empty on success. Creating
// and terminating complete before the call returns (HCS may answer
// HCS_E_OPERATION_PENDING and report completion through a callback; the
// emulator never does).
//
// Contract, as on Windows: on success the error record is empty and the
// output is set ("[]" for an empty enumeration); on failure the HRESULT is
// negative and the error record is
// {"Success":false,"Error":"<message> ","ErrorCode":<unsigned decimal>}.
// Implementations must be safe to call from several threads at once.

#include <string>
#include <string_view>

#include "wincni/hns/guid.hpp"
#include "wincni/hns/hresult.hpp"

namespace wincni::hns {

enum class HcnObject { Network, Endpoint, Namespace, LoadBalancer, SdnRoute };

std::string_view object_name(HcnObject kind);  // "Network", "Endpoint", "Namespace", "LoadBalancer", "SdnRoute"

// An open HCN object; void* as HCN_NETWORK & co. are. nullptr is no handle.
using HcnHandle = void*;
// An open compute system, as HCS_SYSTEM is.
using HcsHandle = void*;

// What an Hcn* call hands back: the HRESULT, the output (Result or
// Properties; empty for calls without one) and the error record.
struct HcnReply {
  HResult hr = hr::kOk;
  std::string output;
  std::string error_record;

  bool ok() const { return succeeded(hr) && error_record.empty(); }
};

// What HNSCall hands back: the HRESULT and, when it succeeded, the response
// envelope {"Success":bool,"Error":string,"Output":<json>}.
struct HnsCallReply {
  HResult hr = hr::kOk;
  std::string response;
};

class HcnApi {
 public:
  virtual ~HcnApi() = default;

  virtual HcnReply enumerate(HcnObject kind, std::string_view query) = 0;
  virtual HcnReply create(HcnObject kind, HcnHandle network, const Guid& id, std::string_view settings,
                          HcnHandle* handle) = 0;
  virtual HcnReply open(HcnObject kind, const Guid& id, HcnHandle* handle) = 0;
  virtual HcnReply modify(HcnObject kind, HcnHandle handle, std::string_view settings) = 0;
  virtual HcnReply query_properties(HcnObject kind, HcnHandle handle, std::string_view query) = 0;
  virtual HcnReply remove(HcnObject kind, const Guid& id) = 0;
  virtual void close(HcnObject kind, HcnHandle handle) = 0;

  // method: "GET" | "POST" | "DELETE"; path like "/endpoints/<id>"; request
  // "" when there is no body.
  virtual HnsCallReply hns_call(std::string_view method, std::string_view path, std::string_view request) = 0;

  // HCS: `id` is the runtime's container ID. The reply's error_record is
  // HCS's Result document; output is the properties for hcs_properties.
  virtual HcnReply hcs_create(std::string_view id, std::string_view configuration, HcsHandle* system) = 0;
  virtual HcnReply hcs_open(std::string_view id, HcsHandle* system) = 0;
  virtual HcnReply hcs_properties(HcsHandle system, std::string_view query) = 0;
  virtual HcnReply hcs_modify(HcsHandle system, std::string_view configuration) = 0;
  virtual HcnReply hcs_terminate(HcsHandle system) = 0;
  virtual void hcs_close(HcsHandle system) = 0;
};

}  // namespace wincni::hns
