// hnsctl version: what HNS reports, and what follows from it.

#include <fmt/format.h>

#include "commands.hpp"

namespace wincni::hnsctl {

int version_show(Context& context, const Args& args) {
  cxxopts::Options options("hnsctl version",
                           "Print the HNS version (GET /globals/version) and the features it has; on the HNS "
                           "emulator, --set and --reset choose the version it reports");
  options.add_options()("json", "Print {\"Major\",\"Minor\",\"Features\":[...]}")(
      "set", "emulator: report this version (MAJOR.MINOR) from now on", cxxopts::value<std::string>())(
      "reset", "emulator: back to the default version");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  if (parsed->count("set") || parsed->count("reset")) {
    if (!context.emulated) throw UsageError("--set and --reset only apply to the HNS emulator");
    std::optional<hns::HnsVersion> wanted;
    if (parsed->count("set")) {
      std::string text = (*parsed)["set"].as<std::string>();
      wanted = hns::HnsVersion::parse(text);
      if (!wanted) throw UsageError("--set \"" + text + "\" is not MAJOR.MINOR");
    }
    context.emulated->store_hns_version(wanted);
  }
  // A fresh client, so that a version just stored is what gets asked.
  hns::HnsClient client(borrowed_api(context));
  hns::HnsVersion version = client.version();
  std::vector<std::string> features;
  for (auto feature : hns::features_of(version)) features.emplace_back(hns::feature_name(feature));
  if (parsed->count("json")) {
    context.out << hns::Json{{"Major", version.major}, {"Minor", version.minor}, {"Features", features}}.dump(2)
                << '\n';
    return kOk;
  }
  context.out << "HNS " << version.str();
  if (context.emulated) context.out << " (" << context.emulated->describe() << ")";
  context.out << "\nfeatures:";
  for (const auto& feature : features) context.out << ' ' << feature;
  context.out << '\n';
  return kOk;
}

}  // namespace wincni::hnsctl
