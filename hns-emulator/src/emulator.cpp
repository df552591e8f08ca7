#include "wincni/hns/emulator/emulator.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <chrono>
#include <initializer_list>
#include <thread>

#include "emulator_impl.hpp"
#include "error_texts.hpp"
#include "failure.hpp"
#include "state_files.hpp"
#include "wincni/os/abrupt_exit.hpp"
#include "wincni/cni/env.hpp"

namespace wincni::hns::emulator {
namespace {

HResult schema_failure_code(const SchemaError& error, HcnObject kind) {
  switch (error.kind()) {
    case SchemaError::Kind::Type:
      return hr::kInvalidJson;
    case SchemaError::Kind::Policy:
      return hr::kInvalidPolicy;
    case SchemaError::Kind::NetworkType:
      return hr::kInvalidNetworkType;
    case SchemaError::Kind::Address:
      return kind == HcnObject::Network ? hr::kInvalidPrefix : hr::kInvalidIp;
    case SchemaError::Kind::Value:
      if (kind == HcnObject::Network) return hr::kInvalidNetwork;
      if (kind == HcnObject::Endpoint) return hr::kInvalidEndpoint;
      return hr::kInvalidJson;
  }
  return hr::kInvalidJson;
}

HostRules rules_of(const EmulatorConfig& config) {
  HostRules rules;
  rules.refuse_prefix_host_bits = config.refuse_prefix_host_bits;
  rules.picks = config.hns_picks;
  rules.duplicate_code = config.duplicate_code;
  rules.filter_either_schema = config.filter_either_schema;
  rules.namespace_delete_leaves_reference = config.namespace_delete_leaves_reference;
  rules.default_namespace = config.default_namespace;
  rules.attached_reads_created = config.attached_reads_created;
  rules.encap_overhead = config.encap_overhead;
  rules.v1_posted_id_ignored = config.v1_posted_id_ignored;
  return rules;
}

// Which of `choices` the variable names; nullopt when it is unset or empty,
// and when it names none of them, with the reason in `problem`.
std::optional<std::size_t> choice_of(const cni::Environment& env, const char* variable,
                                     std::initializer_list<std::string_view> choices, std::string& problem) {
  auto value = env.get(variable);
  if (!value || value->empty()) return std::nullopt;
  std::size_t index = 0;
  for (std::string_view choice : choices) {
    if (*value == choice) return index;
    ++index;
  }
  problem = fmt::format("{} \"{}\" is none of: {}", variable, *value, fmt::join(choices, ", "));
  return std::nullopt;
}

}  // namespace

EmulatorConfig EmulatorConfig::from_environment() {
  EmulatorConfig config;
  const cni::Environment env = cni::Environment::from_process();
  if (auto dir = env.get("WINCNI_EMULATOR_DIR"); dir && !dir->empty()) config.state_dir = *dir;
  if (auto journal = env.get("WINCNI_EMULATOR_JOURNAL"); journal && !journal->empty()) {
    config.journal_path = *journal;
  }
  config.faults = env.get("WINCNI_EMULATOR_FAULTS").value_or("");
  if (auto version = env.get("WINCNI_EMULATOR_HNS_VERSION"); version && !version->empty()) {
    config.hns_version = HnsVersion::parse(*version);
    if (!config.hns_version) {
      config.problem = "WINCNI_EMULATOR_HNS_VERSION \"" + *version + "\" is not MAJOR.MINOR";
    }
  }
  if (auto host_bits = choice_of(env, "WINCNI_EMULATOR_PREFIX_HOST_BITS", {"accept", "refuse"}, config.problem)) {
    config.refuse_prefix_host_bits = *host_bits == 1;
  }
  if (auto texts = choice_of(env, "WINCNI_EMULATOR_ERROR_TEXTS", {"english", "localised"}, config.problem)) {
    config.error_texts = *texts == 1 ? ErrorTextLanguage::Chinese : ErrorTextLanguage::English;
  }
  constexpr std::array kDuplicateCodes{hr::kAlreadyExists, hr::kNetworkAlreadyExists, hr::kDupName, hr::kInvalidArg,
                                       hr::kObjectAlreadyExists};
  if (auto code = choice_of(env, "WINCNI_EMULATOR_DUPLICATE_CODE",
                            {"0x800700B7", "0x803B0010", "0x80070034", "0x80070057", "0x80071392"}, config.problem)) {
    config.duplicate_code = kDuplicateCodes.at(*code);
  }
  if (auto keys = choice_of(env, "WINCNI_EMULATOR_FILTER_KEYS", {"v1", "either"}, config.problem)) {
    config.filter_either_schema = *keys == 1;
  }
  if (auto deletion =
          choice_of(env, "WINCNI_EMULATOR_NAMESPACE_DELETE", {"detaches", "leaves-reference"}, config.problem)) {
    config.namespace_delete_leaves_reference = *deletion == 1;
  }
  if (auto present = choice_of(env, "WINCNI_EMULATOR_DEFAULT_NAMESPACE", {"absent", "present"}, config.problem)) {
    config.default_namespace = *present == 1;
  }
  if (auto state = choice_of(env, "WINCNI_EMULATOR_ATTACHED_STATE", {"attached", "created"}, config.problem)) {
    config.attached_reads_created = *state == 1;
  }
  if (auto overhead = choice_of(env, "WINCNI_EMULATOR_ENCAP_OVERHEAD", {"none", "listed"}, config.problem)) {
    config.encap_overhead = *overhead == 1;
  }
  if (auto posted = choice_of(env, "WINCNI_EMULATOR_V1_POSTED_ID", {"kept", "ignored"}, config.problem)) {
    config.v1_posted_id_ignored = *posted == 1;
  }
  if (auto failures = choice_of(env, "WINCNI_EMULATOR_V1_FAILURES", {"call", "envelope"}, config.problem)) {
    config.v1_failures_in_envelope = *failures == 1;
  }
  if (auto picks = choice_of(env, "WINCNI_EMULATOR_HNS_PICKS", {"lowest", "random"}, config.problem)) {
    config.hns_picks = *picks == 1 ? PickOrder::Random : PickOrder::Lowest;
  }
  return config;
}

std::string Emulator::Impl::error_record(HResult code) const {
  return hns::error_record(code, hns_error_text(code, config.error_texts));
}

std::string operation_name(std::string_view verb, HcnObject kind) {
  std::string name(verb);
  name += object_name(kind);
  if (verb == "Enumerate") name += 's';
  if (verb == "Query") name += "Properties";
  return name;
}

Emulator::Impl::Impl(EmulatorConfig config_in)
    : config(std::move(config_in)), store(config.state_dir), journal(config.journal_path) {
  if (!config.problem.empty()) return;
  try {
    faults = FaultPlan(parse_faults(config.faults));
  } catch (const std::invalid_argument& error) {
    config.problem = error.what();
  }
}

HnsVersion Emulator::Impl::version_of(EmulatorState& state) const {
  if (config.hns_version) return *config.hns_version;
  return state.globals().hns_version.value_or(kDefaultHnsVersion);
}

Outcome Emulator::Impl::run(const std::string& operation, HcnObject kind, Access access,
                            const std::function<std::string(Host&)>& body) {
  const auto started = std::chrono::steady_clock::now();
  Outcome outcome = run_untimed(operation, kind, access, body);
  outcome.spent = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started);
  return outcome;
}

Outcome Emulator::Impl::run_untimed(const std::string& operation, HcnObject kind, Access access,
                                    const std::function<std::string(Host&)>& body) {
  Outcome outcome;
  if (!config.problem.empty()) {
    outcome.hr = hr::kInvalidArg;
    outcome.detail = config.problem;
    outcome.explain = true;
    return outcome;
  }
  std::optional<Garbling> garbling;
  try {
    if (faults.watches(operation)) {
      std::optional<Fault> fault;
      store.update([&](EmulatorState& state) {
        fault = faults.due(operation, ++state.globals().call_counts[operation]);
        return true;
      });
      if (fault) {
        switch (fault->action) {
          case FaultAction::Fail:
            return Outcome{fault->hresult, {}, "injected fault: " + operation + " fails"};
          case FaultAction::Delay:
            std::this_thread::sleep_for(std::chrono::milliseconds(fault->delay_ms));
            break;
          case FaultAction::Hang:
            for (;;) std::this_thread::sleep_for(std::chrono::minutes(1));
          case FaultAction::Crash:
            outcome.crash_after = true;
            break;
          case FaultAction::Lose:
            outcome.lost_as = fault->hresult;
            break;
          case FaultAction::Garble:
            garbling = fault->garbling;
            break;
        }
      }
    }
    auto apply = [&](EmulatorState& state) {
      if (config.default_namespace) add_host_default_namespace(state);
      Host host(state, version_of(state), rules_of(config));
      outcome.output = body(host);
    };
    if (access == Access::Write) {
      store.update([&](EmulatorState& state) {
        apply(state);
        return true;
      });
    } else {
      store.inspect(apply);
    }
    if (failed(outcome.lost_as)) {
      return Outcome{outcome.lost_as, {}, "injected fault: the answer of " + operation + " was lost"};
    }
    outcome.garbled = garbling;
    if (garbling) outcome.detail = "injected fault: the answer of " + operation + " is garbled";
  } catch (const HcnFailure& failure) {
    outcome.hr = failure.code();
    outcome.detail = failure.what();
    outcome.output.clear();
  } catch (const SchemaError& error) {
    outcome.hr = schema_failure_code(error, kind);
    outcome.detail = error.what();
    outcome.output.clear();
  } catch (const std::exception& error) {
    // The store itself failed (disk, corrupt file): HNS is broken, not the caller.
    outcome.hr = hr::kFail;
    outcome.detail = std::string("HNS emulator store: ") + error.what();
    outcome.output.clear();
    outcome.explain = true;
  }
  return outcome;
}

void Emulator::Impl::finish(std::string_view op, const std::function<nlohmann::json()>& input, HResult result,
                            std::string_view output, const Outcome& outcome) const {
  journal.record(op, input, result, output, outcome.detail, outcome.spent);
  if (outcome.crash_after) os::exit_abruptly(86);
}

HcnHandle Emulator::Impl::open_handle(HcnObject kind, const Guid& id) {
  auto* object = new OpenObject{kind, id};
  std::lock_guard<std::mutex> guard(handles_mutex);
  handles.insert(object);
  return object;
}

Guid Emulator::Impl::resolve(HcnObject kind, HcnHandle handle) {
  std::lock_guard<std::mutex> guard(handles_mutex);
  auto* object = static_cast<OpenObject*>(handle);
  if (!handles.count(object) || object->kind != kind) {
    throw HcnFailure(hr::kInvalidHandle, fmt::format("not an open {} handle", object_name(kind)));
  }
  return object->id;
}

nlohmann::json Emulator::Impl::describe_handle(HcnHandle handle) {
  std::lock_guard<std::mutex> guard(handles_mutex);
  if (auto* object = static_cast<OpenObject*>(handle); handles.count(object)) return object->id.str();
  if (auto* system = static_cast<OpenSystem*>(handle); systems.count(system)) return system->id;
  return nullptr;
}

HcsHandle Emulator::Impl::open_system(const std::string& id) {
  auto* system = new OpenSystem{id};
  std::lock_guard<std::mutex> guard(handles_mutex);
  systems.insert(system);
  return system;
}

std::string Emulator::Impl::resolve_system(HcsHandle handle) {
  std::lock_guard<std::mutex> guard(handles_mutex);
  auto* system = static_cast<OpenSystem*>(handle);
  if (!systems.count(system)) throw HcnFailure(hr::kInvalidHandle, "not an open compute system handle");
  return system->id;
}

void Emulator::Impl::close_system(HcsHandle handle) {
  std::lock_guard<std::mutex> guard(handles_mutex);
  auto* system = static_cast<OpenSystem*>(handle);
  if (systems.erase(system)) delete system;
}

void Emulator::Impl::close_handle(HcnHandle handle) {
  std::lock_guard<std::mutex> guard(handles_mutex);
  auto* object = static_cast<OpenObject*>(handle);
  if (handles.erase(object)) delete object;
}

Emulator::Emulator(EmulatorConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}

Emulator::~Emulator() {
  for (auto* object : impl_->handles) delete object;
  for (auto* system : impl_->systems) delete system;
}

const EmulatorConfig& Emulator::config() const { return impl_->config; }

void Emulator::store_hns_version(std::optional<HnsVersion> version) {
  impl_->store.update([&](EmulatorState& state) {
    state.globals().hns_version = version;
    return true;
  });
}

HnsVersion Emulator::hns_version() {
  HnsVersion version;
  impl_->store.inspect([&](EmulatorState& state) { version = impl_->version_of(state); });
  return version;
}

void Emulator::set_host_adapter(const std::string& name, const std::optional<cni::IpAddress>& management_ip) {
  impl_->store.update([&](EmulatorState& state) {
    state.host().adapter_name = name;
    if (management_ip) state.host().management_ip = *management_ip;
    return true;
  });
}

}  // namespace wincni::hns::emulator
