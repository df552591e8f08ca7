// A CNI result in any version: decoded as each version (as a plugin reads
// prevResult) and in its own (as a runtime reads stdout), then written as
// every version. What libcni writes it must read back, and writing what it
// read back must give the same bytes.

#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/result.hpp"
#include "wincni/cni/version.hpp"

using namespace wincni;

namespace {

void write_every_version(const cni::Result& result) {
  for (const auto& version : cni::known_versions()) {
    std::string written;
    if (!fuzz::tolerating<cni::Error>([&] { written = result.encode(version).dump(); })) continue;
    cni::Result reread;
    fuzz::tolerating<>([&] { reread = cni::Result::decode(nlohmann::json::parse(written), version); });
    std::string rewritten;
    fuzz::tolerating<>([&] { rewritten = reread.encode(version).dump(); });
    if (rewritten != written) {
      std::fprintf(stderr, "fuzz: %s result changed on a round trip:\n%s\n%s\n", version.c_str(), written.c_str(),
                   rewritten.c_str());
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto document = nlohmann::json::parse(fuzz::text(data, size), nullptr, false);
  if (document.is_discarded()) return 0;

  for (const auto& version : cni::known_versions()) {
    cni::Result result;
    if (fuzz::tolerating<cni::Error>([&] { result = cni::Result::decode(document, version); })) {
      write_every_version(result);
    }
  }
  cni::Result result;
  if (fuzz::tolerating<cni::Error>([&] { result = cni::Result::decode_in_own_version(document, "0.1.0"); })) {
    write_every_version(result);
  }
  fuzz::tolerating<cni::Error>([&] { cni::decode_dns(document); });
  if (document.is_object()) {
    if (auto version = document.find("cniVersion"); version != document.end() && version->is_string()) {
      fuzz::tolerating<cni::Error>([&] { cni::parse_version(version->get<std::string>()); });
    }
  }
  return 0;
}
