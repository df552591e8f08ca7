#pragma once
// One store change that touches several files (an object and its index
// entries, the globals), made all-or-nothing across a crash: the whole change
// is first written, flushed, as <dir>/commit.json; then its files are
// written (without flushing each) and removed; then commit.json goes. A
// process that finds commit.json under the lock was preceded by one that
// died part-way, and applies it again before anything else: every step
// writes a whole file or removes one, so doing it twice is doing it once.
// A change of one object file alone needs no record: its atomic rename is
// all-or-nothing already.

#include <optional>
#include <string>
#include <vector>

namespace wincni::hns::emulator {

struct FileChange {
  enum class Kind { Write, CreateEmpty, Remove };
  Kind kind;
  std::string path;     // relative to the store directory
  std::string content;  // for Write
};

class CommitRecord {
 public:
  void write(std::string path, std::string content);
  void create_empty(std::string path);
  void remove(std::string path);
  bool empty() const { return changes_.empty(); }

  // Makes every change under `directory`, durably.
  void commit(const std::string& directory) const;
  // Finishes the commit a dead process left; false when there was none.
  static bool recover(const std::string& directory);
  static bool pending(const std::string& directory);

 private:
  static CommitRecord parse(const std::string& text, const std::string& path);
  std::string dump() const;
  void apply(const std::string& directory) const;

  std::vector<FileChange> changes_;
};

}  // namespace wincni::hns::emulator
