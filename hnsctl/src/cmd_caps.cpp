// hnsctl caps: what this host's HNS lets wincni do. `hnsctl version` lists
// the features by their HNS names; this says which settings each one
// decides, so that an operator sees before the first pod why a config is
// refused on this host (cni error 2 names the same feature).

#include <fmt/format.h>

#include "command_entry_points.hpp"
#include "emulated_host.hpp"
#include "known_broken_builds.hpp"

namespace wincni::hnsctl {

namespace {

struct Capability {
  hns::Feature feature;
  const char* what;       // what wincni does with it
  const char* otherwise;  // what happens on a host without it
};

constexpr Capability kCapabilities[] = {
    {hns::Feature::ApiV2, "HCN (apiVersion 2): containerd's pods in their namespaces",
     "only dockershim-era pods (HNS v1); containerd's pods, in HCN namespaces, fail"},
    {hns::Feature::Dsr, "loopbackDSR", "a config with loopbackDSR is refused (error 2)"},
    {hns::Feature::Ipv6DualStack, "IPv6 addresses, dual stack", "an IPv6 range or address is refused (error 2)"},
    {hns::Feature::RemoteSubnet, "flanneld's vxlan backend: a route per remote node's subnet",
     "flanneld's vxlan backend cannot route to other nodes"},
    {hns::Feature::HostRoute, "flanneld's vxlan backend: the host route to the node",
     "pods on Overlay networks cannot reach their node"},
};

}  // namespace

int caps_show(Context& context, const Args& args) {
  os::OptionSet options("hnsctl caps",
                        "What this host's HNS lets wincni do: for each feature a setting depends on, whether "
                        "HNS has it, the HNS versions that do, and what happens without it");
  options.flag("json", "Print {\"Version\", \"Capabilities\":[{\"Feature\",\"Supported\",...}]}");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  const hns::HnsVersion version = context.client.version();

  hns::Json rows = hns::Json::array();
  for (const Capability& capability : kCapabilities) {
    rows.push_back({{"Feature", hns::feature_name(capability.feature)},
                    {"Supported", hns::supports(version, capability.feature)},
                    {"Versions", hns::feature_versions(capability.feature)},
                    {"For", capability.what},
                    {"Without", capability.otherwise}});
  }
  const std::optional<os::WindowsBuild> build =
      context.emulated != nullptr ? context.emulated->windows_build() : os::windows_build();
  hns::Json problems = hns::Json::array();
  if (build) {
    for (const BuildProblem& problem : known_problems(*build)) {
      problems.push_back({{"Problem", problem.what}, {"Source", problem.source}});
    }
  }
  if (parsed->given("json")) {
    print(context.out, "{}\n",
          hns::Json{{"Version", version.str()},
                    {"OsBuild", build ? hns::Json(build->str()) : hns::Json()},
                    {"OsProblems", problems},
                    {"Capabilities", rows}}
              .dump(2));
    return kOk;
  }
  if (build) {
    print(context.out, "Windows {}\n", build->str());
  } else {
    context.out.write("Windows build: not known (not Windows; the emulator plays one with WINCNI_EMULATOR_OS_BUILD)\n");
  }
  for (const hns::Json& problem : problems) {
    print(context.out, "  KNOWN PROBLEM: {} ({})\n", problem["Problem"].get<std::string>(),
          problem["Source"].get<std::string>());
  }
  print(context.out, "HNS {}{}\n", version.str(), emulated_suffix(context));
  for (const hns::Json& row : rows) {
    const bool supported = row["Supported"].get<bool>();
    print(context.out, "  {:<3} {:<14} {}\n", supported ? "yes" : "no", row["Feature"].get<std::string>(),
          row["For"].get<std::string>());
    if (!supported) {
      print(context.out, "      {:<14} without it: {}; HNS {} has it\n", "", row["Without"].get<std::string>(),
            row["Versions"].get<std::string>());
    }
  }
  return kOk;
}

}  // namespace wincni::hnsctl
