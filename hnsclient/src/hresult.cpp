#include "wincni/hns/hresult.hpp"

#include <array>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wincni::hns {
namespace {

struct KnownCode {
  HResult code;
  std::string_view name;
  std::string_view message;  // FormatMessage text, trailing blank removed
};

// Texts from winerror.h / the HCN error-code reference; clients such as
// flanneld match on them ("This endpoint is already attached to the switch.").
constexpr std::array kKnownCodes{
    KnownCode{hr::kOk, "S_OK", "The operation completed successfully."},
    KnownCode{hr::kNotImpl, "E_NOTIMPL", "Not implemented"},
    KnownCode{hr::kFail, "E_FAIL", "Unspecified error"},
    KnownCode{hr::kInvalidArg, "ERROR_INVALID_PARAMETER", "The parameter is incorrect."},
    KnownCode{hr::kElementNotFound, "ERROR_NOT_FOUND", "Element not found."},
    KnownCode{hr::kAlreadyExists, "ERROR_ALREADY_EXISTS", "Cannot create a file when that file already exists."},
    KnownCode{hr::kDupName, "ERROR_DUP_NAME", "You were not connected because a duplicate name exists on the network."},
    KnownCode{hr::kObjectAlreadyExists, "ERROR_OBJECT_ALREADY_EXISTS", "The object already exists."},
    KnownCode{hr::kProcNotFound, "ERROR_PROC_NOT_FOUND", "The specified procedure could not be found."},
    KnownCode{hr::kTimeout, "ERROR_TIMEOUT", "This operation returned because the timeout period expired."},
    KnownCode{hr::kInvalidHandle, "ERROR_INVALID_HANDLE", "The handle is invalid."},
    KnownCode{hr::kNoMoreItems, "ERROR_NO_MORE_ITEMS", "No more data is available."},
    KnownCode{hr::kNotSupported, "ERROR_NOT_SUPPORTED", "The request is not supported."},
    KnownCode{hr::kRpcServerUnavailable, "RPC_S_SERVER_UNAVAILABLE", "The RPC server is unavailable."},
    KnownCode{hr::kRpcServerTooBusy, "RPC_S_SERVER_TOO_BUSY", "The RPC server is too busy to complete this operation."},
    KnownCode{hr::kRpcCallFailed, "RPC_S_CALL_FAILED", "The remote procedure call failed."},
    KnownCode{hr::kRpcCallFailedDne, "RPC_S_CALL_FAILED_DNE", "The remote procedure call failed and did not execute."},
    KnownCode{hr::kNetworkNotFound, "HCN_E_NETWORK_NOT_FOUND", "The network was not found."},
    KnownCode{hr::kEndpointNotFound, "HCN_E_ENDPOINT_NOT_FOUND", "The endpoint was not found."},
    KnownCode{hr::kLayerNotFound, "HCN_E_LAYER_NOT_FOUND", "The network's underlying layer was not found."},
    KnownCode{hr::kSwitchNotFound, "HCN_E_SWITCH_NOT_FOUND", "The virtual switch was not found."},
    KnownCode{hr::kSubnetNotFound, "HCN_E_SUBNET_NOT_FOUND", "The network does not have a subnet for this endpoint."},
    KnownCode{hr::kAdapterNotFound, "HCN_E_ADAPTER_NOT_FOUND", "An adapter was not found."},
    KnownCode{hr::kPortNotFound, "HCN_E_PORT_NOT_FOUND", "The switch-port was not found."},
    KnownCode{hr::kPolicyNotFound, "HCN_E_POLICY_NOT_FOUND", "An expected policy was not found."},
    KnownCode{hr::kVfpPortSettingNotFound, "HCN_E_VFP_PORTSETTING_NOT_FOUND",
              "A required VFP port setting was not found."},
    KnownCode{hr::kInvalidNetwork, "HCN_E_INVALID_NETWORK",
              "The provided network configuration is invalid or missing parameters."},
    KnownCode{hr::kInvalidNetworkType, "HCN_E_INVALID_NETWORK_TYPE", "Invalid network type."},
    KnownCode{hr::kInvalidEndpoint, "HCN_E_INVALID_ENDPOINT",
              "The provided endpoint configuration is invalid or missing parameters."},
    KnownCode{hr::kInvalidPolicy, "HCN_E_INVALID_POLICY",
              "The provided policy configuration is invalid or missing parameters."},
    KnownCode{hr::kInvalidPolicyType, "HCN_E_INVALID_POLICY_TYPE", "Invalid policy type."},
    KnownCode{hr::kInvalidRemoteEndpointOperation, "HCN_E_INVALID_REMOTE_ENDPOINT_OPERATION",
              "This requested operation is invalid for a remote endpoint."},
    KnownCode{hr::kNetworkAlreadyExists, "HCN_E_NETWORK_ALREADY_EXISTS", "A network with this name already exists."},
    KnownCode{hr::kLayerAlreadyExists, "HCN_E_LAYER_ALREADY_EXISTS", "A network with this name already exists."},
    KnownCode{hr::kPolicyAlreadyExists, "HCN_E_POLICY_ALREADY_EXISTS",
              "Policy information already exists on this object."},
    KnownCode{hr::kPortAlreadyExists, "HCN_E_PORT_ALREADY_EXISTS", "The specified port already exists."},
    KnownCode{hr::kEndpointAlreadyAttached, "HCN_E_ENDPOINT_ALREADY_ATTACHED",
              "This endpoint is already attached to the switch."},
    KnownCode{hr::kRequestUnsupported, "HCN_E_REQUEST_UNSUPPORTED", "The specified request is unsupported."},
    KnownCode{hr::kMappingNotSupported, "HCN_E_MAPPING_NOT_SUPPORTED",
              "Port mapping is not supported on the given network."},
    KnownCode{hr::kDegradedOperation, "HCN_E_DEGRADED_OPERATION",
              "There was an operation attempted on a degraded object."},
    KnownCode{hr::kSharedSwitchModification, "HCN_E_SHARED_SWITCH_MODIFICATION",
              "Cannot modify a switch shared by multiple networks."},
    KnownCode{hr::kGuidConversionFailure, "HCN_E_GUID_CONVERSION_FAILURE",
              "Failed to interpret a parameter as a GUID."},
    KnownCode{hr::kRegkeyFailure, "HCN_E_REGKEY_FAILURE", "Failed to process registry key."},
    KnownCode{hr::kInvalidJson, "HCN_E_INVALID_JSON", "Invalid JSON document string."},
    KnownCode{hr::kInvalidJsonReference, "HCN_E_INVALID_JSON_REFERENCE",
              "The reference is invalid in the JSON document."},
    KnownCode{hr::kEndpointSharingDisabled, "HCN_E_ENDPOINT_SHARING_DISABLED", "Endpoint sharing is disabled."},
    KnownCode{hr::kInvalidIp, "HCN_E_INVALID_IP",
              "IP address is either invalid or not part of any configured subnet(s)."},
    KnownCode{hr::kSwitchExtensionNotFound, "HCN_E_SWITCH_EXTENSION_NOT_FOUND",
              "The specified switch extension does not exist on this switch."},
    KnownCode{hr::kManagerStopped, "HCN_E_MANAGER_STOPPED", "Operation cannot be performed while service is stopping."},
    KnownCode{hr::kDefaultNamespaceExists, "GCN_E_DEFAULTNAMESPACE_EXISTS", "Default Namespace already exists."},
    KnownCode{hr::kIcsDisabled, "HCN_E_ICS_DISABLED",
              "Internet Connection Sharing service (SharedAccess) is disabled and cannot be started."},
    KnownCode{hr::kEndpointNamespaceAlreadyExists, "HCN_E_ENDPOINT_NAMESPACE_ALREADY_EXISTS",
              "This requested operation is invalid as endpoint is already part of a network namespace."},
    KnownCode{hr::kEntityHasReferences, "HCN_E_ENTITY_HAS_REFERENCES",
              "The specified entity cannot be removed while it still has references."},
    KnownCode{hr::kInvalidInternalPort, "HCN_E_INVALID_INTERNAL_PORT",
              "The internal port must exist and cannot be zero."},
    KnownCode{hr::kNamespaceAttachFailed, "HCN_E_NAMESPACE_ATTACH_FAILED",
              "The requested operation for attach namespace failed."},
    KnownCode{hr::kAddrInvalidOrReserved, "HCN_E_ADDR_INVALID_OR_RESERVED",
              "An address provided is invalid or reserved."},
    KnownCode{hr::kInvalidPrefix, "HCN_E_INVALID_PREFIX", "The prefix provided is invalid."},
    KnownCode{hr::kInvalidSubnet, "HCN_E_INVALID_SUBNET",
              "The provided subnet configuration is invalid or missing parameters."},
    KnownCode{hr::kEndpointNotAttached, "HCN_E_ENDPOINT_NOT_ATTACHED",
              "The endpoint must be attached to complete the operation."},
    KnownCode{hr::kHcsInvalidJson, "HCS_E_INVALID_JSON", "The virtual machine or container JSON document is invalid."},
    // The text ovn-kubernetes issue 390 quotes from a node.
    KnownCode{hr::kSystemNotFound, "HCS_E_SYSTEM_NOT_FOUND",
              "A Compute System with the specified identifier does not exist."},
    KnownCode{hr::kSystemAlreadyExists, "HCS_E_SYSTEM_ALREADY_EXISTS",
              "A virtual machine or container with the specified identifier already exists."},
    KnownCode{hr::kSystemAlreadyStopped, "HCS_E_SYSTEM_ALREADY_STOPPED",
              "The virtual machine or container with the specified identifier is not running."},
};

const KnownCode* find_code(HResult code) {
  for (const auto& known : kKnownCodes) {
    if (known.code == code) return &known;
  }
  return nullptr;
}

}  // namespace

std::string_view hresult_name(HResult code) {
  const KnownCode* known = find_code(code);
  return known ? known->name : std::string_view{};
}

std::string hresult_message(HResult code) {
  if (const KnownCode* known = find_code(code)) return std::string(known->message);
  return fmt::format("Unknown error {}.", hresult_hex(code));
}

std::string hresult_hex(HResult code) { return fmt::format("0x{:08X}", code); }

std::string error_record(HResult code) {
  // HNS keeps FormatMessage's trailing blank; clients that match "… found. "
  // depend on it.
  return error_record(code, hresult_message(code) + " ");
}

std::string error_record(HResult code, std::string_view message) {
  // Field order as HNS prints it.
  nlohmann::ordered_json record = {{"Success", false}, {"Error", message}, {"ErrorCode", code}};
  return record.dump();
}

}  // namespace wincni::hns
