#include "doctor/runtime_cache.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wincni::hnsctl::doctor {

namespace fs = std::filesystem;

namespace {

// The container ID of a cache entry; empty when the file is not one.
std::string cached_container(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  const nlohmann::json entry =
      nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(in), {}), nullptr, false);
  if (!entry.is_object() || entry.value("kind", "") != "cniCacheV1") return {};
  const auto id = entry.find("containerId");
  return id != entry.end() && id->is_string() ? id->get<std::string>() : std::string{};
}

}  // namespace

RuntimeCache read_runtime_cache(const std::string& folder) {
  std::error_code error;
  fs::path results(folder);
  if (fs::is_directory(results / "results", error)) results /= "results";
  if (!fs::is_directory(results, error)) {
    throw std::runtime_error(fmt::format(
        "the runtime's result cache {} does not exist: without it nothing tells which pods are alive "
        "(give the folder with --cache-dir)",
        folder));
  }
  RuntimeCache cache{results.string(), {}, {}};
  for (const auto& entry : fs::directory_iterator(results, error)) {
    if (!entry.is_regular_file(error)) continue;
    const std::string container = cached_container(entry.path());
    if (container.empty()) {
      cache.unreadable.push_back(entry.path().string());
    } else {
      cache.containers.insert(container);
    }
  }
  if (error) throw std::runtime_error(fmt::format("cannot read {}: {}", results.string(), error.message()));
  return cache;
}

}  // namespace wincni::hnsctl::doctor
