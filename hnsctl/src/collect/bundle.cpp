#include "collect/bundle.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "collect/secret_redaction.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::hnsctl::collect {

namespace {

namespace files = os::private_files;

// A bundle is mailed and attached to issues: beyond this, what is left is
// named in the README instead.
constexpr std::size_t kMaxTotalBytes = 64 << 20;
// A folder may hold thousands of cache entries; a maintainer needs the
// picture, not every one.
constexpr std::size_t kMaxFilesPerFolder = 2000;

}  // namespace

void Bundle::add_text(const std::string& name, std::string_view text) {
  Redacted redacted = redact_secrets(text);
  if (total_ + redacted.text.size() > kMaxTotalBytes) {
    leave_out(fmt::format("{} ({} bytes): the bundle reached its {} MiB limit", name, redacted.text.size(),
                          kMaxTotalBytes >> 20));
    return;
  }
  redacted_ += redacted.values;
  total_ += redacted.text.size();
  archive_.add(name, redacted.text);
  contents_.push_back(fmt::format("{} ({} bytes{})", name, redacted.text.size(),
                                  redacted.values == 0 ? "" : fmt::format(", {} values redacted", redacted.values)));
}

void Bundle::add_file(const std::string& name, const std::string& path, std::size_t max_bytes, Opener opened) {
  try {
    if (files::is_link(path)) {
      leave_out(fmt::format("{}: a link, never followed", path));
      return;
    }
    // Logs rotate at 10 MiB, so reading whole and keeping the tail is cheap.
    const auto text = files::read_file(path, std::max<std::size_t>(max_bytes, 32 << 20));
    if (!text) {
      leave_out(fmt::format("{}: not there", path));
      return;
    }
    if (text->size() > max_bytes) {
      // From the first line that starts in the kept part: a line cut in two
      // could lose the key that names a secret and keep its value.
      std::size_t from = text->find('\n', text->size() - max_bytes - 1);
      from = from == std::string::npos ? text->size() : from + 1;
      leave_out(
          fmt::format("{}: only its last {} of {} bytes are in {}", path, text->size() - from, text->size(), name));
      add_text(name, std::string_view(*text).substr(from));
      return;
    }
    add_text(name, opened != nullptr ? opened(*text) : *text);
  } catch (const std::exception& error) {
    leave_out(fmt::format("{}: {}", path, error.what()));
  }
}

void Bundle::add_folder(const std::string& prefix, const std::string& dir, bool (*wanted)(std::string_view name),
                        int depth, std::size_t max_bytes, Opener opened) {
  if (files::is_link(dir)) {
    leave_out(fmt::format("{}: a link, never followed", dir));
    return;
  }
  if (!files::is_directory(dir)) {
    leave_out(fmt::format("{}: no such folder", dir));
    return;
  }
  std::vector<files::DirEntry> entries;
  try {
    entries = files::list_directory(dir);
  } catch (const std::exception& error) {
    leave_out(fmt::format("{}: {}", dir, error.what()));
    return;
  }
  std::sort(entries.begin(), entries.end(),
            [](const files::DirEntry& a, const files::DirEntry& b) { return a.name < b.name; });
  std::size_t taken = 0;
  for (const files::DirEntry& entry : entries) {
    const std::string path = files::join(dir, entry.name);
    const std::string name = prefix + "/" + entry.name;
    if (!entry.regular_file) {
      if (depth > 0 && files::is_directory(path) && !files::is_link(path)) {
        add_folder(name, path, wanted, depth - 1, max_bytes, opened);
      } else {
        leave_out(fmt::format("{}: not a file", path));
      }
      continue;
    }
    if (!wanted(entry.name)) {
      leave_out(fmt::format("{}: not a kind of file collect takes (only its name is here)", path));
      continue;
    }
    if (++taken > kMaxFilesPerFolder) {
      leave_out(fmt::format("{}: past the first {} files of the folder", path, kMaxFilesPerFolder));
      continue;
    }
    add_file(name, path, max_bytes, opened);
  }
}

std::string Bundle::finish(const std::string& header) {
  std::string readme = header;
  readme +=
      fmt::format("\nIn this bundle ({} values that looked like secrets were replaced by <redacted>):\n", redacted_);
  for (const std::string& line : contents_) readme += "  " + line + "\n";
  readme += left_out_.empty() ? "\nNothing was left out.\n" : "\nLeft out:\n";
  for (const std::string& line : left_out_) readme += "  " + line + "\n";
  archive_.add("README.txt", readme);
  return archive_.finish();
}

}  // namespace wincni::hnsctl::collect
