#pragma once
// The HNS emulator: an HcnApi that behaves like HNS, with its state in a
// directory shared by every process that uses it (docs/reference/hns-api.md,
// docs/architecture.md).
//
// Environment:
//   WINCNI_EMULATOR_DIR          state directory (default below)
//   WINCNI_EMULATOR_HNS_VERSION  "13.2": the version HNS reports (overrides
//                                the one `hnsctl` stored; default 15.4, which
//                                has every feature)
//   WINCNI_EMULATOR_FAULTS       fault injection (hns-emulator/src/faults.hpp)
//   WINCNI_EMULATOR_JOURNAL      file to append one JSON line per call to
//   and the switches where Windows versions differ or nobody knows what
//   Windows does (EmulatorConfig, docs/reference/emulator-fidelity.md)
//
// The entry points take UTF-8 and return UTF-8 strings and an HRESULT, so
// that a computenetwork.dll / vmcompute.dll shim needs only UTF-16
// conversion and CoTaskMemAlloc around them.

#include <memory>
#include <optional>
#include <string>

#include "wincni/cni/ip.hpp"
#include "wincni/hns/features.hpp"
#include "wincni/hns/seam.hpp"

namespace wincni::hns::emulator {

// Where the emulated host keeps its HNS state when WINCNI_EMULATOR_DIR is not
// set: like HNS's own store, it outlives reboots.
inline constexpr const char* kDefaultStateDir = "/var/lib/wincni/hns-emulator";
inline constexpr HnsVersion kDefaultHnsVersion{15, 4};

// The language of HNS's error texts (hns-emulator/src/error_texts.hpp).
enum class ErrorTextLanguage { English, Chinese };

// Where HNS starts looking for a free address or MAC
// (hns-emulator/src/free_pick.hpp).
enum class PickOrder { Lowest, Random };

struct EmulatorConfig {
  std::string state_dir = kDefaultStateDir;
  std::optional<std::string> journal_path;
  std::string faults;
  std::optional<HnsVersion> hns_version;
  // Prefixes with host bits ("10.244.0.1/16") in OutBoundNAT exceptions and
  // route destinations: Windows Server 2019 took them, a 2022 host refused
  // one such endpoint with HCN_E_INVALID_POLICY (hcsshim issue 1951; the
  // cause is not established). Accepted unless
  // WINCNI_EMULATOR_PREFIX_HOST_BITS=refuse.
  bool refuse_prefix_host_bits = false;
  // Windows words its error texts in the host's language; English unless
  // WINCNI_EMULATOR_ERROR_TEXTS=localised.
  ErrorTextLanguage error_texts = ErrorTextLanguage::English;
  // The lowest free address and MAC unless WINCNI_EMULATOR_HNS_PICKS=random:
  // Windows picks neither the lowest nor in any documented way.
  PickOrder hns_picks = PickOrder::Lowest;
  // What HNS answers a create whose endpoint or namespace ID, or network
  // name, is taken: not public for endpoints (a network's name has been
  // answered HCN_E_NETWORK_ALREADY_EXISTS, and ERROR_DUP_NAME; a v1 endpoint
  // create "The object already exists", ERROR_OBJECT_ALREADY_EXISTS,
  // microsoft/SDN#298). nullopt: the emulator's ERROR_ALREADY_EXISTS and
  // HCN_E_NETWORK_ALREADY_EXISTS; else WINCNI_EMULATOR_DUPLICATE_CODE's, one
  // of 0x800700B7, 0x803B0010, 0x80070034, 0x80070057, 0x80071392.
  std::optional<HResult> duplicate_code;
  // Enumerate filters name v1 properties (hns-emulator/src/filter.hpp); with
  // WINCNI_EMULATOR_FILTER_KEYS=either, v2 ones too.
  bool filter_either_schema = false;
  // A namespace deleted while endpoints are attached (the runtime tears the
  // sandbox down before CNI DEL, Azure/azure-container-networking issue
  // 1272): whether the endpoints still name it is not public. They are
  // detached unless WINCNI_EMULATOR_NAMESPACE_DELETE=leaves-reference.
  bool namespace_delete_leaves_reference = false;
  // Real hosts list a default namespace nobody created (calico issue 8465),
  // yet hcsshim's tests create a HostDefault one and pass: how the two fit
  // is not public. None, and a second HostDefault refused, unless
  // WINCNI_EMULATOR_DEFAULT_NAMESPACE=present.
  bool default_namespace = false;
  // The v1 State of an endpoint attached to a namespace or to the host: 2
  // (Attached), or 1 (Created) with WINCNI_EMULATOR_ATTACHED_STATE=created,
  // as a Windows 11 host showed for an endpoint in a namespace
  // (microsoft/Windows-Containers#563); what a host-attached one reads on a
  // server is not public.
  bool attached_reads_created = false;
  // EncapOverhead 50 on an Overlay network's endpoints, in the v1 field and
  // as a v2 policy, with WINCNI_EMULATOR_ENCAP_OVERHEAD=listed
  // (hns_owned_policies.hpp); by default none.
  bool encap_overhead = false;
  // Whether HNS v1 keeps the "ID" a client posts with a new network,
  // endpoint or namespace: no public source shows it does (every client seen
  // reads the ID from the answer). Kept, unless
  // WINCNI_EMULATOR_V1_POSTED_ID=ignored: then HNS picks a new one, as when
  // none is posted. HCN's Id parameter and settings' ID are kept either way.
  bool v1_posted_id_ignored = false;
  // How HNS v1 answers a request it fails: with HNSCall's HRESULT, as a host
  // answered an attach of an attached endpoint ("hnsCall failed in Win32:
  // This endpoint is already attached to the switch. (0x803b0014)",
  // projectcalico/calico issue 5192), or with WINCNI_EMULATOR_V1_FAILURES=
  // envelope in {"Success":false,"Error":…,"ErrorCode":…} (microsoft/hcsshim
  // pull request 2800). A miss is answered in the envelope either way (its
  // code only under "envelope"), RPC failures and timeouts never.
  bool v1_failures_in_envelope = false;
  // Set by from_environment when a variable holds something unusable; every
  // call then fails with E_INVALIDARG and this text.
  std::string problem;

  static EmulatorConfig from_environment();
};

class Emulator final : public HcnApi {
 public:
  explicit Emulator(EmulatorConfig config);
  ~Emulator() override;
  Emulator(const Emulator&) = delete;
  Emulator& operator=(const Emulator&) = delete;

  HcnReply enumerate(HcnObject kind, std::string_view query) override;
  HcnReply create(HcnObject kind, HcnHandle network, const Guid& id, std::string_view settings,
                  HcnHandle* handle) override;
  HcnReply open(HcnObject kind, const Guid& id, HcnHandle* handle) override;
  HcnReply modify(HcnObject kind, HcnHandle handle, std::string_view settings) override;
  HcnReply query_properties(HcnObject kind, HcnHandle handle, std::string_view query) override;
  HcnReply remove(HcnObject kind, const Guid& id) override;
  void close(HcnObject kind, HcnHandle handle) override;
  HnsCallReply hns_call(std::string_view method, std::string_view path, std::string_view request) override;
  HcnReply hcs_create(std::string_view id, std::string_view configuration, HcsHandle* system) override;
  HcnReply hcs_open(std::string_view id, HcsHandle* system) override;
  HcnReply hcs_properties(HcsHandle system, std::string_view query) override;
  HcnReply hcs_modify(HcsHandle system, std::string_view configuration) override;
  HcnReply hcs_terminate(HcsHandle system) override;
  void hcs_close(HcsHandle system) override;

  // --- administration of the emulated host (hnsctl, tests); not HNS calls ---
  // The version stored in the state (nullopt: back to the default).
  void store_hns_version(std::optional<HnsVersion> version);
  // The version HNS reports now: environment, else stored, else the default.
  HnsVersion hns_version();
  // The host's physical adapter, which networks bind to; its address stays
  // as it was when `management_ip` is empty.
  void set_host_adapter(const std::string& name, const std::optional<cni::IpAddress>& management_ip);
  const EmulatorConfig& config() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace wincni::hns::emulator
