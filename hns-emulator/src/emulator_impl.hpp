#pragma once
// What the emulator's two call styles share: the store, faults, journal and
// open handles, and run(), which carries one operation through all of them.

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "faults.hpp"
#include "host.hpp"
#include "journal.hpp"
#include "state_store.hpp"
#include "wincni/hns/emulator/emulator.hpp"
#include "wincni/hns/schema/schema_error.hpp"

namespace wincni::hns::emulator {

// What one operation came to, before it is dressed as an Hcn* reply or an
// HNSCall envelope.
struct Outcome {
  HResult hr = hr::kOk;
  std::string output;
  std::string detail;  // why it failed, for the journal
  // The emulator itself failed (store, configuration): the error record
  // says why instead of HNS's generic text.
  bool explain = false;
  bool crash_after = false;                        // a "crash" fault: end the process once recorded
  HResult lost_as = hr::kOk;                       // a "lose" fault: the work done, this answered instead
  std::optional<Garbling> garbled = std::nullopt;  // a "garble" fault on a call that succeeded
  std::chrono::microseconds spent{0};              // the emulator's own time on the call, for the journal
};

enum class Access { Read, Write };

struct Emulator::Impl {
  explicit Impl(EmulatorConfig config);

  EmulatorConfig config;
  StateStore store;
  FaultPlan faults;
  Journal journal;

  // Runs `body` against the host under the lock (shared for Read), after any
  // fault due for `operation`; maps failures to their HRESULT. A SchemaError
  // becomes the HRESULT HNS gives for bad input of an object of `kind`.
  // Times itself: Outcome::spent.
  Outcome run(const std::string& operation, HcnObject kind, Access access,
              const std::function<std::string(Host&)>& body);
  Outcome run_untimed(const std::string& operation, HcnObject kind, Access access,
                      const std::function<std::string(Host&)>& body);
  // Journals the call and, for a crash fault, ends the process.
  void finish(std::string_view op, const std::function<nlohmann::json()>& input, HResult result,
              std::string_view output, const Outcome& outcome) const;

  HnsVersion version_of(EmulatorState& state) const;
  // HNS's error record for `code`, worded in the configured language.
  std::string error_record(HResult code) const;

  // Open handles: the address of an OpenObject is the HcnHandle.
  struct OpenObject {
    HcnObject kind;
    Guid id;
  };
  HcnHandle open_handle(HcnObject kind, const Guid& id);
  // HcnFailure(ERROR_INVALID_HANDLE) unless `handle` is open and of `kind`.
  Guid resolve(HcnObject kind, HcnHandle handle);
  void close_handle(HcnHandle handle);
  // For the journal: the ID the handle stands for (stable across runs,
  // unlike its address), or null.
  nlohmann::json describe_handle(HcnHandle handle);

  // Open compute systems: the address of an OpenSystem is the HcsHandle.
  struct OpenSystem {
    std::string id;
  };
  HcsHandle open_system(const std::string& id);
  // HcnFailure(ERROR_INVALID_HANDLE) unless `system` is open.
  std::string resolve_system(HcsHandle system);
  void close_system(HcsHandle system);

  std::mutex handles_mutex;
  std::set<OpenObject*> handles;
  std::set<OpenSystem*> systems;
};

std::string operation_name(std::string_view verb, HcnObject kind);

}  // namespace wincni::hns::emulator
