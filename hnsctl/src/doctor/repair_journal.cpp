#include "doctor/repair_journal.hpp"

#include <optional>

#include "wincni/cni/error.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::hnsctl::doctor {

namespace {

// Past the journal's own limit (256 KiB, then rotated): a file this big is
// not one a plugin wrote, and is read no further.
constexpr std::size_t kMaxJournalBytes = 1024 * 1024;

void append_lines(const std::string& path, std::vector<std::string>& lines) {
  std::optional<std::string> text;
  try {
    text = os::private_files::read_file(path, kMaxJournalBytes);
  } catch (const cni::Error&) {
    return;  // unreadable or too big: no history to show
  }
  if (!text) return;
  std::size_t start = 0;
  while (start < text->size()) {
    std::size_t end = text->find('\n', start);
    if (end == std::string::npos) end = text->size();
    if (end > start) lines.push_back(text->substr(start, end - start));
    start = end + 1;
  }
}

}  // namespace

std::vector<std::string> recent_repairs(const std::string& journal, std::size_t most) {
  std::vector<std::string> lines;
  append_lines(journal + ".1", lines);
  append_lines(journal, lines);
  if (lines.size() > most) lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(most));
  return lines;
}

}  // namespace wincni::hnsctl::doctor
