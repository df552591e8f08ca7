#pragma once
// An emulated node whose plugin is the engine itself, in process: each call
// goes through the skel (cni::run_plugin) into an EndpointEngine with the
// flavor under test and a Backend that hands it an emulator on the node's
// state directory, with the call's fault and journal settings. IPAM is the
// real host-local binary, as a runtime would delegate to it; hnsctl reads
// the node. Faults that end the calling process (crash) are for the binary
// suites (tests/e2e): here they would end the test.

#include <memory>
#include <sstream>

#include "emulated_node.hpp"
#include "wincni/cni/skel.hpp"
#include "wincni/engine/engine.hpp"
#include "wincni/hns/emulator/emulator.hpp"

namespace wincni::test {

class EngineNode : public EmulatedNode {
 public:
  explicit EngineNode(const engine::EndpointFlavor& flavor) : flavor_(flavor) {}

  Run invoke(const PluginCall& call) const override {
    cni::Environment environment = env();
    for (const auto& [key, value] : call_variables(call)) environment.set(key, value);
    hns::emulator::EmulatorConfig emulator;
    emulator.state_dir = environment.get_or("WINCNI_EMULATOR_DIR", "");
    emulator.faults = environment.get_or("WINCNI_EMULATOR_FAULTS", "");
    if (auto journal = environment.get("WINCNI_EMULATOR_JOURNAL")) emulator.journal_path = *journal;
    const engine::EndpointEngine engine(flavor_,
                                        [emulator] { return std::make_shared<hns::emulator::Emulator>(emulator); });
    os::StringSource in(call.config);
    os::StringSink out, err;
    const int code = cni::run_plugin(engine.plugin_spec(), {"engine"}, environment, in, out, err);
    return Run{code, out.text, err.text, false};
  }

 private:
  const engine::EndpointFlavor& flavor_;
};

}  // namespace wincni::test
