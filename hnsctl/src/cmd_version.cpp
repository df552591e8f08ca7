// hnsctl version: what HNS reports, and what follows from it.

#include <fmt/format.h>

#include "command_entry_points.hpp"

namespace wincni::hnsctl {

int version_show(Context& context, const Args& args) {
  os::OptionSet options("hnsctl version",
                        "Print the HNS version (GET /globals/version) and the features it has; on the HNS "
                        "emulator, --set and --reset choose the version it reports");
  options.flag("json", "Print {\"Major\",\"Minor\",\"Features\":[...]}")
      .value("set", "emulator: report this version (MAJOR.MINOR) from now on")
      .flag("reset", "emulator: back to the default version");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  if (parsed->given("set") || parsed->given("reset")) {
    if (!context.emulated) throw UsageError("--set and --reset only apply to the HNS emulator");
    std::optional<hns::HnsVersion> wanted;
    if (parsed->given("set")) {
      std::string text = parsed->text("set");
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
  if (parsed->given("json")) {
    print(context.out, "{}\n",
          hns::Json{{"Major", version.major}, {"Minor", version.minor}, {"Features", features}}.dump(2));
    return kOk;
  }
  print(context.out, "HNS {}{}\nfeatures:", version.str(), emulated_suffix(context));
  for (const auto& feature : features) print(context.out, " {}", feature);
  context.out.write("\n");
  return kOk;
}

}  // namespace wincni::hnsctl
