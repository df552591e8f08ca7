#pragma once
// A zip archive built in memory: every entry stored uncompressed, names in
// UTF-8. Zip because Windows opens it without any tool (Explorer,
// Expand-Archive) and so does every maintainer's machine; stored because a
// support bundle is a few MiB of text and the archive must be writable
// without a compression library in a 1.5 MB binary. Format: PKWARE's
// APPNOTE.TXT (local headers, central directory, end record; general flag
// bit 11 for UTF-8 names), no zip64: collect keeps far below 4 GiB and
// 65535 entries.

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

namespace wincni::hnsctl::collect {

class ZipArchive {
 public:
  // `when` stamps every entry, in UTC: a bundle is read in another time
  // zone than the node's, and the logs inside say UTC too.
  explicit ZipArchive(std::time_t when);

  // `name` with '/' between folders. std::length_error past the format's
  // limits.
  void add(std::string_view name, std::string_view content);

  std::size_t entries() const { return entries_.size(); }
  std::size_t size() const { return data_.size(); }

  // The whole archive: the entries, the central directory, the end record.
  std::string finish() const;

 private:
  struct Entry {
    std::string name;
    std::uint32_t crc = 0;
    std::uint32_t size = 0;
    std::uint32_t offset = 0;
  };
  std::uint16_t dos_time_ = 0;
  std::uint16_t dos_date_ = 0;
  std::string data_;
  std::vector<Entry> entries_;
};

// CRC-32 (IEEE 802.3, the zip and gzip one) of `bytes`.
std::uint32_t crc32(std::string_view bytes);

}  // namespace wincni::hnsctl::collect
