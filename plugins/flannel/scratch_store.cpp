#include "wincni/flannel/scratch_store.hpp"

#include <random>

#include <fmt/format.h>

#include "wincni/cni/cni_env.hpp"
#include "wincni/cni/config_file_names.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::flannel {
namespace {

namespace files = os::private_files;

// A leading '.' no container ID has, and a random part unique to the writer.
constexpr std::string_view kStagingPrefix = ".staging-";

std::string staging_name(std::string_view sandbox) {
  std::random_device random;
  return fmt::format("{}{}-{:08x}", kStagingPrefix, sandbox, random());
}

}  // namespace

std::string ScratchStore::path(std::string_view sandbox) const { return files::join(dir_, sandbox); }

void ScratchStore::save(std::string_view sandbox, std::string_view config) const {
  // A delegate config someone else could swap is what DEL would act on.
  files::require_administrators_only(dir_);
  files::create_private_directories(dir_);
  // Again: someone may have made a missing folder above in between.
  files::require_administrators_only(dir_);
  files::replace_file(dir_, sandbox, staging_name(sandbox), config);
}

std::optional<std::string> ScratchStore::load(std::string_view sandbox) const {
  return files::read_file(path(sandbox));
}

bool ScratchStore::remove(std::string_view sandbox) const { return files::remove_file(path(sandbox)); }

std::optional<SavedDelegate> read_saved_delegate(std::string_view bytes) {
  nlohmann::json config = nlohmann::json::parse(bytes, nullptr, false);
  if (!config.is_object()) return std::nullopt;
  const auto type = config.find("type");
  if (type == config.end() || !type->is_string() || type->get<std::string>().empty()) return std::nullopt;
  return SavedDelegate{type->get<std::string>(), std::move(config)};
}

namespace {

// Bigger than any delegate config flannel saves (a few KiB, with every port
// mapping a pod may ask for), and read no further.
constexpr std::size_t kMaxRecordBytes = 1024 * 1024;

// Whether the file `name` holds what flannel saves for a pod: a delegate
// config (saved_delegate), never the node's own CNI config that a dataDir
// pointed at the config folder would show: a .conf/.conflist/.json name, a
// network list, flannel's own config.
bool is_record(const ScratchStore& store, const std::string& name) {
  if (cni::is_config_file_name(name)) return false;
  std::optional<std::string> bytes;
  try {
    bytes = files::read_file(store.path(name), kMaxRecordBytes);
  } catch (const cni::Error&) {
    return false;
  }
  if (!bytes) return false;
  const auto saved = read_saved_delegate(*bytes);
  return saved && saved->type != "flannel" && !saved->config.contains("plugins");
}

}  // namespace

ScratchListing ScratchStore::list() const {
  ScratchListing found;
  if (!files::is_directory(dir_)) return found;
  for (const files::DirEntry& entry : files::list_directory(dir_)) {
    if (!entry.regular_file || !cni::is_valid_cni_name(entry.name)) continue;
    (is_record(*this, entry.name) ? found.records : found.others).push_back(entry.name);
  }
  return found;
}

std::size_t ScratchStore::remove_staging_leftovers() const {
  std::size_t removed = 0;
  if (!files::is_directory(dir_)) return removed;
  for (const files::DirEntry& entry : files::list_directory(dir_)) {
    if (entry.regular_file && entry.name.starts_with(kStagingPrefix) &&
        files::remove_file(files::join(dir_, entry.name))) {
      ++removed;
    }
  }
  return removed;
}

}  // namespace wincni::flannel
