#pragma once
// HRESULTs as HNS returns them, with the text FormatMessage gives for each:
// clients (flanneld, hcsshim) match on that text, so it has to be exact.

#include <cstdint>
#include <string>
#include <string_view>

namespace wincni::hns {

// Unsigned, because HNS error records print the code as an unsigned decimal.
using HResult = std::uint32_t;

constexpr bool failed(HResult hr) { return (hr & 0x80000000u) != 0; }
constexpr bool succeeded(HResult hr) { return !failed(hr); }
constexpr HResult hresult_from_win32(std::uint32_t code) { return code == 0 ? 0 : ((code & 0xFFFFu) | 0x80070000u); }

namespace hr {
constexpr HResult kOk = 0;
constexpr HResult kNotImpl = 0x80004001;
constexpr HResult kFail = 0x80004005;
constexpr HResult kInvalidArg = 0x80070057;       // ERROR_INVALID_PARAMETER
constexpr HResult kElementNotFound = 0x80070490;  // ERROR_NOT_FOUND
constexpr HResult kAlreadyExists = 0x800700B7;    // ERROR_ALREADY_EXISTS
constexpr HResult kDupName = 0x80070034;          // ERROR_DUP_NAME
// ERROR_OBJECT_ALREADY_EXISTS: a v1 endpoint create answered it (microsoft/SDN#298)
constexpr HResult kObjectAlreadyExists = 0x80071392;
constexpr HResult kProcNotFound = 0x8007007F;   // ERROR_PROC_NOT_FOUND: a missing export
constexpr HResult kTimeout = 0x800705B4;        // ERROR_TIMEOUT
constexpr HResult kInvalidHandle = 0x80070006;  // ERROR_INVALID_HANDLE
constexpr HResult kNoMoreItems = 0x80070103;    // ERROR_NO_MORE_ITEMS
constexpr HResult kNotSupported = 0x80070032;   // ERROR_NOT_SUPPORTED
constexpr HResult kRpcServerUnavailable = 0x800706BA;
constexpr HResult kRpcServerTooBusy = 0x800706BB;
constexpr HResult kRpcCallFailed = 0x800706BE;
constexpr HResult kRpcCallFailedDne = 0x800706BF;

constexpr HResult kNetworkNotFound = 0x803B0001;
constexpr HResult kEndpointNotFound = 0x803B0002;
constexpr HResult kLayerNotFound = 0x803B0003;
constexpr HResult kSwitchNotFound = 0x803B0004;
constexpr HResult kSubnetNotFound = 0x803B0005;
constexpr HResult kAdapterNotFound = 0x803B0006;
constexpr HResult kPortNotFound = 0x803B0007;
constexpr HResult kPolicyNotFound = 0x803B0008;
constexpr HResult kVfpPortSettingNotFound = 0x803B0009;
constexpr HResult kInvalidNetwork = 0x803B000A;
constexpr HResult kInvalidNetworkType = 0x803B000B;
constexpr HResult kInvalidEndpoint = 0x803B000C;
constexpr HResult kInvalidPolicy = 0x803B000D;
constexpr HResult kInvalidPolicyType = 0x803B000E;
constexpr HResult kInvalidRemoteEndpointOperation = 0x803B000F;
constexpr HResult kNetworkAlreadyExists = 0x803B0010;
constexpr HResult kLayerAlreadyExists = 0x803B0011;
constexpr HResult kPolicyAlreadyExists = 0x803B0012;
constexpr HResult kPortAlreadyExists = 0x803B0013;
constexpr HResult kEndpointAlreadyAttached = 0x803B0014;
constexpr HResult kRequestUnsupported = 0x803B0015;
constexpr HResult kMappingNotSupported = 0x803B0016;
constexpr HResult kDegradedOperation = 0x803B0017;
constexpr HResult kSharedSwitchModification = 0x803B0018;
constexpr HResult kGuidConversionFailure = 0x803B0019;
constexpr HResult kRegkeyFailure = 0x803B001A;
constexpr HResult kInvalidJson = 0x803B001B;
constexpr HResult kInvalidJsonReference = 0x803B001C;
constexpr HResult kEndpointSharingDisabled = 0x803B001D;
constexpr HResult kInvalidIp = 0x803B001E;
constexpr HResult kSwitchExtensionNotFound = 0x803B001F;
constexpr HResult kManagerStopped = 0x803B0020;
constexpr HResult kDefaultNamespaceExists = 0x803B0029;  // GCN_E_DEFAULTNAMESPACE_EXISTS
constexpr HResult kIcsDisabled = 0x803B002A;
constexpr HResult kEndpointNamespaceAlreadyExists = 0x803B002B;
constexpr HResult kEntityHasReferences = 0x803B002C;
constexpr HResult kInvalidInternalPort = 0x803B002D;
constexpr HResult kNamespaceAttachFailed = 0x803B002E;
constexpr HResult kAddrInvalidOrReserved = 0x803B002F;
constexpr HResult kInvalidPrefix = 0x803B0030;
constexpr HResult kInvalidSubnet = 0x803B0032;
constexpr HResult kEndpointNotAttached = 0x803B0034;

// HCS (vmcompute.dll) answers with facility 0x037 and the severity bits
// 0xC: hcsshim's ErrComputeSystemDoesNotExist is 0xC037010E, where the
// Windows SDK writes HCS_E_SYSTEM_NOT_FOUND as 0x8037010E.
constexpr HResult kHcsInvalidJson = 0xC037010D;
constexpr HResult kSystemNotFound = 0xC037010E;
constexpr HResult kSystemAlreadyExists = 0xC037010F;
constexpr HResult kSystemAlreadyStopped = 0xC0370110;
}  // namespace hr

// HCS_E_SYSTEM_NOT_FOUND in either spelling: no compute system (running
// container) with that ID.
constexpr bool is_compute_system_missing(HResult code) { return (code & 0xBFFFFFFFu) == 0x8037010Eu; }

// "HCN_E_NETWORK_NOT_FOUND", "ERROR_NOT_FOUND", ...; "" when unknown.
std::string_view hresult_name(HResult code);
// The system message without trailing blanks, e.g. "Element not found.";
// a generic text naming the code when it is not one HNS uses.
std::string hresult_message(HResult code);
// "0x803B0001" (upper-case hex, 8 digits).
std::string hresult_hex(HResult code);

// The error record HNS hands back on failure:
// {"Success":false,"Error":"<message> ","ErrorCode":<unsigned decimal>}.
std::string error_record(HResult code);
// The same shape with another text, for failures that are not HNS's own
// (the emulator's store or configuration).
std::string error_record(HResult code, std::string_view message);

}  // namespace wincni::hns
