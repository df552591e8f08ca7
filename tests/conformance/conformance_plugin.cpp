#include "conformance_plugin.hpp"

#include <stdexcept>

#include "golden_results.hpp"
#include "wincni/cni/cni_args.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/version.hpp"

namespace wincni::test {

namespace {

std::vector<std::string> versions_from(const std::string& list) {
  std::vector<std::string> versions;
  for (size_t start = 0; start <= list.size();) {
    const size_t comma = list.find(',', start);
    const size_t end = comma == std::string::npos ? list.size() : comma;
    if (end > start) versions.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return versions;
}

// The failure the config asks for, if any; every command honours it.
void fail_if_asked(const cni::CommandContext& ctx) {
  const cni::NetConf& conf = ctx.config;
  if (const auto* untyped = conf.find("throwUntyped"); untyped != nullptr && *untyped == true) {
    throw std::runtime_error("untyped failure requested by the config");
  }
  if (const auto* code = conf.find("errorCode"); code != nullptr && code->is_number_integer()) {
    const auto* msg = conf.find("errorMsg");
    const auto* details = conf.find("errorDetails");
    throw cni::Error(code->get<int>(), msg != nullptr && msg->is_string() ? msg->get<std::string>() : "",
                     details != nullptr && details->is_string() ? details->get<std::string>() : "");
  }
}

cni::Result add(const cni::CommandContext& ctx) {
  fail_if_asked(ctx);
  cni::CniArgs::parse(ctx.cni_args);
  if (auto prev = ctx.config.prev_result()) return *prev;
  cni::Result result = conformance_fixed_result();
  if (const auto* no_addresses = ctx.config.find("noAddresses"); no_addresses != nullptr && *no_addresses == true) {
    result.ips.clear();
  }
  return result;
}

}  // namespace

cni::Result conformance_fixed_result() {
  return cni::Result::decode(nlohmann::json::parse(golden_text(cni::kCurrentVersion)), cni::kCurrentVersion);
}

cni::PluginSpec conformance_plugin_spec(const cni::Environment& env) {
  cni::PluginSpec spec;
  spec.name = "wincni-conformance-plugin";
  spec.description = "exercises the CNI protocol for the conformance tests";
  spec.supported_versions = versions_from(env.get_or("WINCNI_CONFORMANCE_VERSIONS", ""));
  spec.add = add;
  spec.del = fail_if_asked;
  spec.check = fail_if_asked;
  spec.gc = fail_if_asked;
  spec.status = fail_if_asked;
  return spec;
}

}  // namespace wincni::test
