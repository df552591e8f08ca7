#include "wincni/hostlocal/owner_index.hpp"

#include <cstdint>
#include <map>

#include <fmt/format.h>

#include "directory_seal.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/os/private_files.hpp"
#include "wincni/hostlocal/owner.hpp"
#include "wincni/hostlocal/store.hpp"

namespace wincni::hostlocal {

namespace files = os::private_files;

namespace {

constexpr std::string_view kFolderName = ".wincni-owners";
constexpr std::string_view kStagingName = ".staging";
constexpr std::string_view kHeader = "wincni host-local owner index 1";
constexpr size_t kBuckets = 256;  // a few files each at 5,000 pods; few files to rebuild

size_t bucket_of(std::string_view container_id) {
  std::uint32_t hash = 2166136261U;  // FNV-1a
  for (const char c : container_id) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619U;
  }
  return hash % kBuckets;
}

// A bucket's name: two lowercase hex digits.
bool is_bucket_name(std::string_view name) {
  const auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  return name.size() == 2 && hex(name[0]) && hex(name[1]);
}

}  // namespace

OwnerIndex::OwnerIndex(std::string network_dir)
    : network_dir_(std::move(network_dir)), folder_(files::join(network_dir_, kFolderName)) {}

bool OwnerIndex::sealed() const {
  return directory_seal::is_sealed(network_dir_) && directory_seal::is_sealed(folder_);
}

// The network directory last: until it is sealed, nothing is trusted.
bool OwnerIndex::seal() const { return directory_seal::seal(folder_) && directory_seal::seal(network_dir_); }

std::string OwnerIndex::bucket_name(std::string_view container_id) const {
  return fmt::format("{:02x}", bucket_of(container_id));
}

std::vector<OwnerIndex::Line> OwnerIndex::read_bucket(const std::string& name) const {
  const std::string path = files::join(folder_, name);
  std::vector<Line> lines;
  const auto text = files::read_file(path);
  // Removing a bucket breaks the folder's seal: under it, a missing bucket
  // was never written, or emptied.
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

std::string OwnerIndex::text_of(const std::vector<Line>& lines) {
  std::string text(kHeader);
  for (const auto& line : lines) text += fmt::format("\n{}\t{}", line.file_name, line.container_id);
  return text;
}

void OwnerIndex::write_bucket(const std::string& name, const std::vector<Line>& lines) const {
  if (lines.empty()) {
    files::remove_file(files::join(folder_, name));
  } else {
    files::replace_file(folder_, name, kStagingName, text_of(lines));
  }
}

std::vector<std::string> OwnerIndex::names_for(std::string_view container_id) const {
  std::vector<std::string> names;
  for (auto& line : read_bucket(bucket_name(container_id))) {
    if (line.container_id == container_id) names.push_back(std::move(line.file_name));
  }
  return names;
}

void OwnerIndex::add(std::string_view file_name, std::string_view container_id) const {
  const std::string name = bucket_name(container_id);
  auto lines = read_bucket(name);
  lines.push_back({std::string(file_name), std::string(container_id)});
  write_bucket(name, lines);
}

void OwnerIndex::remove(std::string_view file_name, std::string_view container_id) const {
  const std::string name = bucket_name(container_id);
  auto lines = read_bucket(name);
  const auto before = lines.size();
  std::erase_if(lines, [&](const Line& line) { return line.file_name == file_name; });
  if (lines.size() != before) write_bucket(name, lines);
}

void OwnerIndex::rebuild(const Snapshot& snapshot) const {
  // Through a link or junction the rebuild would empty whatever folder it
  // leads to (security review, finding 1).
  if (files::is_link(folder_)) {
    throw cni::Error(
        cni::kIoFailure,
        fmt::format("{} is a link or junction, not host-local's owner index: refused (remove it)", folder_));
  }
  files::create_private_directories(folder_);
  std::map<std::string, std::vector<Line>> buckets;
  for (const auto& entry : snapshot.reservations) {
    const Reservation& reservation = entry.second;
    // A name that is not a readable file blocks its address but names nobody.
    if (!reservation.content) continue;
    std::string container_id(owner_container_id(*reservation.content));
    buckets[bucket_name(container_id)].push_back({reservation.file_name, std::move(container_id)});
  }
  // Only what the index itself writes goes: buckets that name nobody now.
  for (const auto& entry : files::list_directory(folder_)) {
    const bool ours = is_bucket_name(entry.name) || entry.name == kStagingName;
    if (ours && buckets.count(entry.name) == 0) files::remove_file(files::join(folder_, entry.name));
  }
  for (const auto& [name, lines] : buckets) {
    // Only what differs is written: a rebuild follows every change the
    // reference host-local makes on a node where the two take turns.
    const std::string text = text_of(lines);
    if (files::read_file(files::join(folder_, name)) != text) files::replace_file(folder_, name, kStagingName, text);
  }
}

}  // namespace wincni::hostlocal
