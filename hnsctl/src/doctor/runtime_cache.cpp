#include "doctor/runtime_cache.hpp"

#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wincni/cni/json_depth.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::hnsctl::doctor {

namespace files = os::private_files;

namespace {

std::string string_field(const nlohmann::json& entry, const char* key) {
  const auto value = entry.find(key);
  return value != entry.end() && value->is_string() ? value->get<std::string>() : std::string{};
}

// The attachment a cache entry records; nullopt when the file is not one
// (or cannot be read).
std::optional<CachedAttachment> cached_attachment(const std::string& path) {
  std::optional<std::string> content;
  try {
    content = files::read_file(path);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  // Deeper than any entry libcni writes: not one, and not parsed (a
  // million levels cost a second of building and freeing, json_depth.hpp).
  if (!content || cni::too_deeply_nested(*content)) return std::nullopt;
  const nlohmann::json entry = nlohmann::json::parse(*content, nullptr, false);
  if (!entry.is_object() || entry.value("kind", "") != "cniCacheV1") return std::nullopt;
  CachedAttachment attachment{string_field(entry, "containerId"), string_field(entry, "networkName"), path};
  if (attachment.container.empty()) return std::nullopt;
  return attachment;
}

}  // namespace

RuntimeCache read_runtime_cache(const std::string& folder) {
  std::string results = folder;
  if (const std::string below = files::join(folder, "results"); files::is_directory(below)) results = below;
  if (!files::is_directory(results)) {
    throw std::runtime_error(
        fmt::format("the runtime's result cache {} does not exist: without it nothing tells which pods are alive "
                    "(give the folder with --cache-dir)",
                    folder));
  }
  RuntimeCache cache{results, {}, {}, {}};
  for (const files::DirEntry& entry : files::list_directory(results)) {
    const std::string path = files::join(results, entry.name);
    // A link to an entry is read through (is_regular_file follows it); left
    // out, its pod would count as gone, and --apply would remove its
    // endpoint.
    if (!entry.regular_file && !files::is_regular_file(path)) continue;
    auto attachment = cached_attachment(path);
    if (!attachment) {
      cache.unreadable.push_back(path);
    } else {
      cache.containers.insert(attachment->container);
      cache.attachments.push_back(std::move(*attachment));
    }
  }
  return cache;
}

}  // namespace wincni::hnsctl::doctor
