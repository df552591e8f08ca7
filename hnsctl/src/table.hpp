#pragma once
// Plain text tables like Get-HnsNetwork prints: a header, then one row per
// object, columns padded to their widest cell.

#include <string>
#include <vector>

#include "wincni/os/byte_streams.hpp"

namespace wincni::hnsctl {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(os::ByteSink& out) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace wincni::hnsctl
