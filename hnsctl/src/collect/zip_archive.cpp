#include "collect/zip_archive.hpp"

#include <array>
#include <limits>
#include <stdexcept>

namespace wincni::hnsctl::collect {

namespace {

constexpr std::uint16_t kVersionNeeded = 20;  // 2.0: folders, no compression features
constexpr std::uint16_t kUtf8Names = 1 << 11;
constexpr std::uint16_t kStored = 0;

void put16(std::string& out, std::uint16_t value) {
  out += static_cast<char>(value & 0xFF);
  out += static_cast<char>(value >> 8);
}

void put32(std::string& out, std::uint32_t value) {
  put16(out, static_cast<std::uint16_t>(value & 0xFFFF));
  put16(out, static_cast<std::uint16_t>(value >> 16));
}

std::array<std::uint32_t, 256> crc_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int bit = 0; bit < 8; ++bit) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}

std::uint32_t checked32(std::size_t value) {
  if (value > std::numeric_limits<std::uint32_t>::max()) throw std::length_error("the archive passed 4 GiB");
  return static_cast<std::uint32_t>(value);
}

}  // namespace

std::uint32_t crc32(std::string_view bytes) {
  static const std::array<std::uint32_t, 256> table = crc_table();
  std::uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char byte : bytes) crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

ZipArchive::ZipArchive(std::time_t when) {
  // hnsctl runs one thread: gmtime's shared buffer is safe here.
  const std::tm parts = *std::gmtime(&when);
  // DOS dates start in 1980.
  const int year = parts.tm_year + 1900 < 1980 ? 0 : parts.tm_year + 1900 - 1980;
  dos_time_ = static_cast<std::uint16_t>((parts.tm_hour << 11) | (parts.tm_min << 5) | (parts.tm_sec / 2));
  dos_date_ = static_cast<std::uint16_t>((year << 9) | ((parts.tm_mon + 1) << 5) | parts.tm_mday);
}

void ZipArchive::add(std::string_view name, std::string_view content) {
  if (entries_.size() >= 0xFFFF) throw std::length_error("the archive passed 65535 entries");
  if (name.size() > 0xFFFF) throw std::length_error("an entry's name is too long");
  Entry entry{std::string(name), crc32(content), checked32(content.size()), checked32(data_.size())};
  put32(data_, 0x04034b50);
  put16(data_, kVersionNeeded);
  put16(data_, kUtf8Names);
  put16(data_, kStored);
  put16(data_, dos_time_);
  put16(data_, dos_date_);
  put32(data_, entry.crc);
  put32(data_, entry.size);  // compressed: stored as it is
  put32(data_, entry.size);
  put16(data_, static_cast<std::uint16_t>(name.size()));
  put16(data_, 0);  // no extra field
  data_ += name;
  data_ += content;
  checked32(data_.size());
  entries_.push_back(std::move(entry));
}

std::string ZipArchive::finish() const {
  std::string out = data_;
  const std::uint32_t directory_offset = checked32(out.size());
  for (const Entry& entry : entries_) {
    put32(out, 0x02014b50);
    put16(out, kVersionNeeded);  // made by: MS-DOS attributes, spec 2.0
    put16(out, kVersionNeeded);
    put16(out, kUtf8Names);
    put16(out, kStored);
    put16(out, dos_time_);
    put16(out, dos_date_);
    put32(out, entry.crc);
    put32(out, entry.size);
    put32(out, entry.size);
    put16(out, static_cast<std::uint16_t>(entry.name.size()));
    put16(out, 0);  // extra field
    put16(out, 0);  // comment
    put16(out, 0);  // disk
    put16(out, 0);  // internal attributes
    put32(out, 0);  // external attributes
    put32(out, entry.offset);
    out += entry.name;
  }
  const std::uint32_t directory_size = checked32(out.size() - directory_offset);
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<std::uint16_t>(entries_.size()));
  put16(out, static_cast<std::uint16_t>(entries_.size()));
  put32(out, directory_size);
  put32(out, directory_offset);
  put16(out, 0);  // comment
  return out;
}

}  // namespace wincni::hnsctl::collect
