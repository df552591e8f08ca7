#include "owner_index.hpp"

#include <array>
#include <cstdint>

#include <fmt/format.h>

#include "owner.hpp"
#include "store.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/private_files.hpp"

namespace wincni::hostlocal {

namespace files = cni::private_files;

namespace {

constexpr std::string_view kFolderName = ".wincni-owners";
constexpr std::string_view kHeader = "wincni host-local owner index 1";
constexpr size_t kBuckets = 256;
// 2000-01-01T00:00:00Z: in whole seconds, so that every file system that
// keeps seconds keeps it exactly, and long before any node ran this.
constexpr std::int64_t kSealNs = 946'684'800LL * 1'000'000'000LL;

size_t bucket_of(std::string_view container_id) {
  std::uint32_t hash = 2166136261U;  // FNV-1a
  for (const char c : container_id) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619U;
  }
  return hash % kBuckets;
}

}  // namespace

OwnerIndex::OwnerIndex(std::string network_dir)
    : network_dir_(std::move(network_dir)), folder_(files::join(network_dir_, kFolderName)) {}

bool OwnerIndex::sealed() const { return files::last_write_time_ns(network_dir_) == kSealNs; }

bool OwnerIndex::seal() const { return files::set_last_write_time_ns(network_dir_, kSealNs); }

std::string OwnerIndex::bucket_path(std::string_view container_id) const {
  return files::join(folder_, fmt::format("{:02x}", bucket_of(container_id)));
}

std::vector<OwnerIndex::Line> OwnerIndex::read_bucket(const std::string& path) const {
  std::vector<Line> lines;
  const auto text = files::read_file(path);
  if (!text) return lines;
  std::string_view rest = *text;
  const auto next_line = [&rest] {
    const size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    return line;
  };
  if (next_line() != kHeader) throw cni::Error(cni::kIoFailure, fmt::format("{}: not an owner index", path));
  while (!rest.empty()) {
    const std::string_view line = next_line();
    const size_t tab = line.find('\t');
    if (tab == std::string_view::npos) throw cni::Error(cni::kIoFailure, fmt::format("{}: malformed line", path));
    lines.push_back({std::string(line.substr(0, tab)), std::string(line.substr(tab + 1))});
  }
  return lines;
}

void OwnerIndex::write_bucket(const std::string& path, const std::vector<Line>& lines) const {
  if (lines.empty()) {
    files::remove_file(path);
    return;
  }
  std::string text(kHeader);
  for (const auto& line : lines) text += fmt::format("\n{}\t{}", line.file_name, line.container_id);
  files::overwrite_file(path, text);
}

std::vector<std::string> OwnerIndex::names_for(std::string_view container_id) const {
  std::vector<std::string> names;
  for (auto& line : read_bucket(bucket_path(container_id))) {
    if (line.container_id == container_id) names.push_back(std::move(line.file_name));
  }
  return names;
}

void OwnerIndex::add(std::string_view file_name, std::string_view container_id) const {
  const std::string path = bucket_path(container_id);
  auto lines = read_bucket(path);
  lines.push_back({std::string(file_name), std::string(container_id)});
  write_bucket(path, lines);
}

void OwnerIndex::remove(std::string_view file_name, std::string_view container_id) const {
  const std::string path = bucket_path(container_id);
  auto lines = read_bucket(path);
  const auto before = lines.size();
  std::erase_if(lines, [&](const Line& line) { return line.file_name == file_name; });
  if (lines.size() != before) write_bucket(path, lines);
}

void OwnerIndex::rebuild(const Snapshot& snapshot) const {
  files::create_private_directories(folder_);
  std::array<std::vector<Line>, kBuckets> buckets;
  for (const auto& entry : snapshot.reservations) {
    const Reservation& reservation = entry.second;
    // A name that is not a readable file blocks its address but names nobody.
    if (!reservation.content) continue;
    std::string container_id(owner_container_id(*reservation.content));
    buckets[bucket_of(container_id)].push_back({reservation.file_name, std::move(container_id)});
  }
  for (size_t bucket = 0; bucket < kBuckets; ++bucket) {
    write_bucket(files::join(folder_, fmt::format("{:02x}", bucket)), buckets[bucket]);
  }
}

}  // namespace wincni::hostlocal
