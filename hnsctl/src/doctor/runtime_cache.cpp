#include "doctor/runtime_cache.hpp"

#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wincni/cni/private_files.hpp"

namespace wincni::hnsctl::doctor {

namespace files = cni::private_files;

namespace {

// The container ID of a cache entry; empty when the file is not one (or
// cannot be read).
std::string cached_container(const std::string& path) {
  std::optional<std::string> content;
  try {
    content = files::read_file(path);
  } catch (const std::exception&) {
    return {};
  }
  if (!content) return {};
  const nlohmann::json entry = nlohmann::json::parse(*content, nullptr, false);
  if (!entry.is_object() || entry.value("kind", "") != "cniCacheV1") return {};
  const auto id = entry.find("containerId");
  return id != entry.end() && id->is_string() ? id->get<std::string>() : std::string{};
}

}  // namespace

RuntimeCache read_runtime_cache(const std::string& folder) {
  std::string results = folder;
  if (const std::string below = files::join(folder, "results"); files::is_directory(below)) results = below;
  if (!files::is_directory(results)) {
    throw std::runtime_error(fmt::format(
        "the runtime's result cache {} does not exist: without it nothing tells which pods are alive "
        "(give the folder with --cache-dir)",
        folder));
  }
  RuntimeCache cache{results, {}, {}};
  for (const files::DirEntry& entry : files::list_directory(results)) {
    const std::string path = files::join(results, entry.name);
    // A link to an entry is read through (is_regular_file follows it); left
    // out, its pod would count as gone, and --apply would remove its
    // endpoint.
    if (!entry.regular_file && !files::is_regular_file(path)) continue;
    const std::string container = cached_container(path);
    if (container.empty()) {
      cache.unreadable.push_back(path);
    } else {
      cache.containers.insert(container);
    }
  }
  return cache;
}

}  // namespace wincni::hnsctl::doctor
