#include "binary_replacement.hpp"

#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "wincni/os/program_files.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::installer {

namespace {

namespace private_files = os::private_files;
namespace program_files = os::program_files;

constexpr std::string_view kNewMark = ".new-";
constexpr std::string_view kOldMark = ".old-";
constexpr size_t kSuffixDigits = 8;

std::string random_suffix() {
  std::random_device random;
  return fmt::format("{:08x}", random());
}

// file_name + mark + 8 lowercase hex digits.
bool is_marked_copy(std::string_view entry, std::string_view file_name, std::string_view mark) {
  if (entry.size() != file_name.size() + mark.size() + kSuffixDigits) return false;
  if (!entry.starts_with(file_name) || entry.substr(file_name.size(), mark.size()) != mark) return false;
  for (const char c : entry.substr(file_name.size() + mark.size())) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// Removes a new copy that will not be used, on the way out of a failure:
// never throws over the error being reported; says what it left behind.
std::string discard(const std::string& staged) {
  try {
    if (program_files::remove_unless_busy(staged) != program_files::Removal::Busy) return "";
  } catch (const std::exception&) {
  }
  return fmt::format("; {} is left over and is removed by a later run", staged);
}

}  // namespace

std::string new_copy_name(std::string_view file_name) {
  return std::string(file_name) + std::string(kNewMark) + random_suffix();
}

BinaryChange install_binary(std::string_view content, const std::string& bin_dir, const std::string& file_name) {
  BinaryChange change;
  change.path = private_files::join(bin_dir, file_name);
  const auto installed = private_files::read_file(change.path);
  if (installed == content) return change;

  const std::string staged = private_files::join(bin_dir, new_copy_name(file_name));
  program_files::write_new_file(staged, content);
  try {
    if (program_files::rename_over(staged, change.path) == program_files::Swap::Done) {
      change.kind = installed ? BinaryChange::Kind::Replaced : BinaryChange::Kind::Installed;
      return change;
    }
    change.moved_aside_to = change.path + std::string(kOldMark) + random_suffix();
    program_files::rename_aside(change.path, change.moved_aside_to);
  } catch (...) {
    discard(staged);
    throw;
  }
  // From here until the new file has the name, the node has no binary under
  // it: the next step is one rename.
  std::string failure = "in use";
  try {
    if (program_files::rename_over(staged, change.path) == program_files::Swap::Done) failure.clear();
  } catch (const std::exception& error) {
    failure = error.what();
  }
  if (failure.empty()) {
    change.kind = BinaryChange::Kind::ReplacedRunning;
    return change;
  }
  // The new file cannot take the name: the old one goes back, so that the
  // node keeps a binary under it. If even that fails, both files stay where
  // they are, named, for the operator (or the next run) to put in place.
  try {
    program_files::rename_aside(change.moved_aside_to, change.path);
  } catch (const std::exception& error) {
    throw std::runtime_error(
        fmt::format("{}: could not be replaced ({}), and the running one could not be put back "
                    "({}): it is {}, the new one {}",
                    change.path, failure, error.what(), change.moved_aside_to, staged));
  }
  throw std::runtime_error(fmt::format("{}: could not be replaced ({}){}", change.path, failure, discard(staged)));
}

std::vector<Leftover> remove_leftovers(const std::string& bin_dir, const std::vector<std::string>& file_names) {
  std::vector<Leftover> leftovers;
  if (!private_files::is_directory(bin_dir)) return leftovers;
  for (const private_files::DirEntry& entry : private_files::list_directory(bin_dir)) {
    if (!entry.regular_file) continue;
    for (const std::string& file_name : file_names) {
      if (!is_marked_copy(entry.name, file_name, kOldMark) && !is_marked_copy(entry.name, file_name, kNewMark)) {
        continue;
      }
      // One leftover that cannot go stops nothing: it is reported as kept.
      Leftover leftover{private_files::join(bin_dir, entry.name)};
      try {
        leftover.removed = program_files::remove_unless_busy(leftover.path) != program_files::Removal::Busy;
      } catch (const std::exception&) {
        leftover.removed = false;
      }
      leftovers.push_back(leftover);
    }
  }
  return leftovers;
}

std::string describe(const Leftover& leftover) {
  return leftover.path + ": " +
         (leftover.removed ? "removed (left by an earlier run)" : "still running (or locked), kept");
}

}  // namespace wincni::installer
