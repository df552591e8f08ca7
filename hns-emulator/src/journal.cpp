#include "journal.hpp"

#include "state_files.hpp"
#include "wincni/cni/json_depth.hpp"

namespace wincni::hns::emulator {

nlohmann::json Journal::embed(std::string_view text) {
  if (text.empty()) return nullptr;
  // Kept as text too: the journal's copy of the document would recurse once
  // a level (json_depth.hpp).
  if (cni::too_deeply_nested(text)) return std::string(text);
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? nlohmann::json(std::string(text)) : parsed;
}

void Journal::record(std::string_view op, const std::function<nlohmann::json()>& input, HResult result,
                     std::string_view output, std::string_view detail, std::chrono::microseconds spent) const {
  if (!path_) return;
  nlohmann::ordered_json line = {{"op", op},
                                 {"input", input()},
                                 {"hresult", hresult_hex(result)},
                                 {"output", embed(output)},
                                 {"micros", spent.count()}};
  if (!detail.empty()) line["detail"] = detail;
  try {
    append_line(*path_, line.dump());
  } catch (const std::exception&) {
    // The journal is a diagnostic aid: a full disk must not fail HNS calls.
  }
}

}  // namespace wincni::hns::emulator
