#include "state_files.hpp"

#include <fmt/format.h>

#include "wincni/os/append_file.hpp"
#include "wincni/cni/error.hpp"

namespace wincni::hns::emulator {

namespace {

namespace files = os::private_files;

std::string host_path(const std::string& path) {
#ifdef _WIN32
  if (!path.empty() && path.front() == '/') {
    std::string mapped = "Z:" + path;
    for (char& c : mapped) {
      if (c == '/') c = '\\';
    }
    return mapped;
  }
#endif
  return path;
}

struct Split {
  std::string folder;
  std::string name;
};

Split split(const std::string& path) {
  const auto cut = path.find_last_of("/\\");
  if (cut == std::string::npos) return {".", path};
  return {path.substr(0, cut == 0 ? 1 : cut), path.substr(cut + 1)};
}

}  // namespace

StateLock::StateLock(const std::string& path, Mode mode)
    : lock_(host_path(path),
            mode == Mode::kExclusive ? os::FileLock::Sharing::kExclusive : os::FileLock::Sharing::kShared,
            os::FileLock::Family::kRecord) {}

std::optional<std::string> read_file(const std::string& path) { return files::read_file(host_path(path)); }

void write_file_atomic(const std::string& path, std::string_view content, Durability durability) {
  const Split at = split(host_path(path));
  files::replace_file(at.folder, at.name, at.name + ".tmp", content, durability);
}

void create_empty_file(const std::string& path) {
  const Split at = split(host_path(path));
  files::publish_file_exclusive(at.folder, at.name, at.name + ".tmp", "");
}

void remove_file(const std::string& path) { files::remove_file(host_path(path)); }

void remove_directory_if_empty(const std::string& path) { files::remove_directory_if_empty(host_path(path)); }

std::vector<std::string> list_directory(const std::string& path) {
  const std::string folder = host_path(path);
  std::vector<std::string> names;
  if (!files::is_directory(folder)) return names;
  for (const files::DirEntry& entry : files::list_directory(folder)) names.push_back(entry.name);
  return names;
}

void append_line(const std::string& path, std::string_view line) {
  os::AppendFile file(host_path(path));
  if (!file.is_open()) throw cni::Error(cni::kIoFailure, fmt::format("open {}: {}", path, file.error()));
  file.append(std::string(line) + "\n");
}

void make_directories(const std::string& path) { files::create_private_directories(host_path(path)); }

}  // namespace wincni::hns::emulator
