// computenetwork.dll for tests: the HCN ("API v2") exports with the exact
// signatures of <computenetwork.h>, answered by the HNS emulator.
// Handles are the emulator's own; they are valid in this DLL's process only.

#include <windows.h>
#include <computenetwork.h>

#include "c_boundary.hpp"
#include "emulator_instance.hpp"
#include "handout_ledger.hpp"
#include "wincni/hns/win32/win32_guid.hpp"

namespace {

using wincni::hns::HcnHandle;
using wincni::hns::HcnObject;
using wincni::hns::emulator_dll::deliver;
using wincni::hns::emulator_dll::emulator;
using wincni::hns::emulator_dll::utf8_argument;
using wincni::hns::win32::from_win32;

HRESULT enumerate(HcnObject kind, PCWSTR query, PWSTR* result, PWSTR* error_record) {
  if (!result) return E_POINTER;
  return deliver("HcnEnumerate", result, error_record,
                 [&] { return emulator().enumerate(kind, utf8_argument(query)); });
}

HRESULT create(HcnObject kind, HcnHandle network, REFGUID id, PCWSTR settings, void** handle, PWSTR* error_record) {
  if (!handle) return E_POINTER;
  *handle = nullptr;
  return deliver("HcnCreate", nullptr, error_record,
                 [&] { return emulator().create(kind, network, from_win32(id), utf8_argument(settings), handle); });
}

HRESULT open(HcnObject kind, REFGUID id, void** handle, PWSTR* error_record) {
  if (!handle) return E_POINTER;
  *handle = nullptr;
  return deliver("HcnOpen", nullptr, error_record, [&] { return emulator().open(kind, from_win32(id), handle); });
}

HRESULT modify(HcnObject kind, HcnHandle handle, PCWSTR settings, PWSTR* error_record) {
  return deliver("HcnModify", nullptr, error_record,
                 [&] { return emulator().modify(kind, handle, utf8_argument(settings)); });
}

HRESULT query(HcnObject kind, HcnHandle handle, PCWSTR query_text, PWSTR* properties, PWSTR* error_record) {
  if (!properties) return E_POINTER;
  return deliver("HcnQueryProperties", properties, error_record,
                 [&] { return emulator().query_properties(kind, handle, utf8_argument(query_text)); });
}

HRESULT remove(HcnObject kind, REFGUID id, PWSTR* error_record) {
  return deliver("HcnDelete", nullptr, error_record, [&] { return emulator().remove(kind, from_win32(id)); });
}

HRESULT close(HcnObject kind, HcnHandle handle) {
  if (!handle) return E_HANDLE;
  try {
    emulator().close(kind, handle);
  } catch (...) {
    return E_FAIL;
  }
  return S_OK;
}

constexpr auto kNetwork = HcnObject::Network;
constexpr auto kEndpoint = HcnObject::Endpoint;
constexpr auto kNamespace = HcnObject::Namespace;
constexpr auto kLoadBalancer = HcnObject::LoadBalancer;
constexpr auto kSdnRoute = HcnObject::SdnRoute;

}  // namespace

// The handouts never freed, reported as the process ends.
BOOL WINAPI DllMain(HINSTANCE, DWORD reason, LPVOID) {
  if (reason == DLL_PROCESS_DETACH) wincni::hns::emulator_dll::report_unfreed_handouts();
  return TRUE;
}

extern "C" {

HRESULT WINAPI HcnEnumerateNetworks(PCWSTR Query, PWSTR* Networks, PWSTR* ErrorRecord) {
  return enumerate(kNetwork, Query, Networks, ErrorRecord);
}
HRESULT WINAPI HcnCreateNetwork(REFGUID Id, PCWSTR Settings, PHCN_NETWORK Network, PWSTR* ErrorRecord) {
  return create(kNetwork, nullptr, Id, Settings, Network, ErrorRecord);
}
HRESULT WINAPI HcnOpenNetwork(REFGUID Id, PHCN_NETWORK Network, PWSTR* ErrorRecord) {
  return open(kNetwork, Id, Network, ErrorRecord);
}
HRESULT WINAPI HcnModifyNetwork(HCN_NETWORK Network, PCWSTR Settings, PWSTR* ErrorRecord) {
  return modify(kNetwork, Network, Settings, ErrorRecord);
}
HRESULT WINAPI HcnQueryNetworkProperties(HCN_NETWORK Network, PCWSTR Query, PWSTR* Properties, PWSTR* ErrorRecord) {
  return query(kNetwork, Network, Query, Properties, ErrorRecord);
}
HRESULT WINAPI HcnDeleteNetwork(REFGUID Id, PWSTR* ErrorRecord) { return remove(kNetwork, Id, ErrorRecord); }
HRESULT WINAPI HcnCloseNetwork(HCN_NETWORK Network) { return close(kNetwork, Network); }

HRESULT WINAPI HcnEnumerateEndpoints(PCWSTR Query, PWSTR* Endpoints, PWSTR* ErrorRecord) {
  return enumerate(kEndpoint, Query, Endpoints, ErrorRecord);
}
HRESULT WINAPI HcnCreateEndpoint(HCN_NETWORK Network, REFGUID Id, PCWSTR Settings, PHCN_ENDPOINT Endpoint,
                                 PWSTR* ErrorRecord) {
  return create(kEndpoint, Network, Id, Settings, Endpoint, ErrorRecord);
}
HRESULT WINAPI HcnOpenEndpoint(REFGUID Id, PHCN_ENDPOINT Endpoint, PWSTR* ErrorRecord) {
  return open(kEndpoint, Id, Endpoint, ErrorRecord);
}
HRESULT WINAPI HcnModifyEndpoint(HCN_ENDPOINT Endpoint, PCWSTR Settings, PWSTR* ErrorRecord) {
  return modify(kEndpoint, Endpoint, Settings, ErrorRecord);
}
HRESULT WINAPI HcnQueryEndpointProperties(HCN_ENDPOINT Endpoint, PCWSTR Query, PWSTR* Properties, PWSTR* ErrorRecord) {
  return query(kEndpoint, Endpoint, Query, Properties, ErrorRecord);
}
HRESULT WINAPI HcnDeleteEndpoint(REFGUID Id, PWSTR* ErrorRecord) { return remove(kEndpoint, Id, ErrorRecord); }
HRESULT WINAPI HcnCloseEndpoint(HCN_ENDPOINT Endpoint) { return close(kEndpoint, Endpoint); }

HRESULT WINAPI HcnEnumerateNamespaces(PCWSTR Query, PWSTR* Namespaces, PWSTR* ErrorRecord) {
  return enumerate(kNamespace, Query, Namespaces, ErrorRecord);
}
HRESULT WINAPI HcnCreateNamespace(REFGUID Id, PCWSTR Settings, PHCN_NAMESPACE Namespace, PWSTR* ErrorRecord) {
  return create(kNamespace, nullptr, Id, Settings, Namespace, ErrorRecord);
}
HRESULT WINAPI HcnOpenNamespace(REFGUID Id, PHCN_NAMESPACE Namespace, PWSTR* ErrorRecord) {
  return open(kNamespace, Id, Namespace, ErrorRecord);
}
HRESULT WINAPI HcnModifyNamespace(HCN_NAMESPACE Namespace, PCWSTR Settings, PWSTR* ErrorRecord) {
  return modify(kNamespace, Namespace, Settings, ErrorRecord);
}
HRESULT WINAPI HcnQueryNamespaceProperties(HCN_NAMESPACE Namespace, PCWSTR Query, PWSTR* Properties,
                                           PWSTR* ErrorRecord) {
  return query(kNamespace, Namespace, Query, Properties, ErrorRecord);
}
HRESULT WINAPI HcnDeleteNamespace(REFGUID Id, PWSTR* ErrorRecord) { return remove(kNamespace, Id, ErrorRecord); }
HRESULT WINAPI HcnCloseNamespace(HCN_NAMESPACE Namespace) { return close(kNamespace, Namespace); }

HRESULT WINAPI HcnEnumerateLoadBalancers(PCWSTR Query, PWSTR* LoadBalancers, PWSTR* ErrorRecord) {
  return enumerate(kLoadBalancer, Query, LoadBalancers, ErrorRecord);
}
HRESULT WINAPI HcnCreateLoadBalancer(REFGUID Id, PCWSTR Settings, PHCN_LOADBALANCER LoadBalancer, PWSTR* ErrorRecord) {
  return create(kLoadBalancer, nullptr, Id, Settings, LoadBalancer, ErrorRecord);
}
HRESULT WINAPI HcnOpenLoadBalancer(REFGUID Id, PHCN_LOADBALANCER LoadBalancer, PWSTR* ErrorRecord) {
  return open(kLoadBalancer, Id, LoadBalancer, ErrorRecord);
}
HRESULT WINAPI HcnModifyLoadBalancer(HCN_LOADBALANCER LoadBalancer, PCWSTR Settings, PWSTR* ErrorRecord) {
  return modify(kLoadBalancer, LoadBalancer, Settings, ErrorRecord);
}
HRESULT WINAPI HcnQueryLoadBalancerProperties(HCN_LOADBALANCER LoadBalancer, PCWSTR Query, PWSTR* Properties,
                                              PWSTR* ErrorRecord) {
  return query(kLoadBalancer, LoadBalancer, Query, Properties, ErrorRecord);
}
HRESULT WINAPI HcnDeleteLoadBalancer(REFGUID Id, PWSTR* ErrorRecord) { return remove(kLoadBalancer, Id, ErrorRecord); }
HRESULT WINAPI HcnCloseLoadBalancer(HCN_LOADBALANCER LoadBalancer) { return close(kLoadBalancer, LoadBalancer); }

// The SDN-route family is exported by Windows (hcsshim's zsyscall_windows.go
// loads it) but not declared in <computenetwork.h>: same shapes, void* handles.
HRESULT WINAPI HcnEnumerateSdnRoutes(PCWSTR Query, PWSTR* Routes, PWSTR* ErrorRecord) {
  return enumerate(kSdnRoute, Query, Routes, ErrorRecord);
}
HRESULT WINAPI HcnCreateSdnRoute(REFGUID Id, PCWSTR Settings, void** Route, PWSTR* ErrorRecord) {
  return create(kSdnRoute, nullptr, Id, Settings, Route, ErrorRecord);
}
HRESULT WINAPI HcnOpenSdnRoute(REFGUID Id, void** Route, PWSTR* ErrorRecord) {
  return open(kSdnRoute, Id, Route, ErrorRecord);
}
HRESULT WINAPI HcnModifySdnRoute(void* Route, PCWSTR Settings, PWSTR* ErrorRecord) {
  return modify(kSdnRoute, Route, Settings, ErrorRecord);
}
HRESULT WINAPI HcnQuerySdnRouteProperties(void* Route, PCWSTR Query, PWSTR* Properties, PWSTR* ErrorRecord) {
  return query(kSdnRoute, Route, Query, Properties, ErrorRecord);
}
HRESULT WINAPI HcnDeleteSdnRoute(REFGUID Id, PWSTR* ErrorRecord) { return remove(kSdnRoute, Id, ErrorRecord); }
HRESULT WINAPI HcnCloseSdnRoute(void* Route) { return close(kSdnRoute, Route); }

}  // extern "C"
