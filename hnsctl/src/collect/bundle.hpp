#pragma once
// The support bundle as it is filled: every text passes secret_redaction
// first, files are read with a size cap (a log keeps its newest bytes), the
// whole stays under a total cap, and what was left out, and why, is
// written into the bundle's README.txt with the rest of its table of
// contents.

#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "collect/zip_archive.hpp"

namespace wincni::hnsctl::collect {

class Bundle {
 public:
  explicit Bundle(std::time_t when) : archive_(when) {}

  void add_text(const std::string& name, std::string_view text);
  // Turns a file's content into what the bundle holds (before the
  // redaction): the result cache's base64 config decoded.
  using Opener = std::string (*)(std::string_view content);
  // A file's content: nothing when it is not there (said in the README);
  // a link is never followed. Past `max_bytes` only its last lines that fit
  // are kept (whole lines: a cut one could lose the key naming a secret and
  // keep its value), and the README says so.
  void add_file(const std::string& name, const std::string& path, std::size_t max_bytes, Opener opened = nullptr);
  // Each regular file of `dir` (and of its folders, `depth` levels down)
  // whose name `wanted` accepts, as prefix/relative path; the others are
  // named in the README, not taken.
  void add_folder(const std::string& prefix, const std::string& dir, bool (*wanted)(std::string_view name), int depth,
                  std::size_t max_bytes, Opener opened = nullptr);
  // A line for the README's "left out" list.
  void leave_out(std::string line) { left_out_.push_back(std::move(line)); }

  // The README and the archive's bytes.
  std::string finish(const std::string& header);

  std::size_t redacted_values() const { return redacted_; }

 private:
  ZipArchive archive_;
  std::vector<std::string> contents_;  // "name (N bytes)"
  std::vector<std::string> left_out_;
  std::size_t redacted_ = 0;
  std::size_t total_ = 0;
};

}  // namespace wincni::hnsctl::collect
