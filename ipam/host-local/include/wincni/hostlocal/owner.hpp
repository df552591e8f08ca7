#pragma once
// Who holds a reservation. The reservation file holds
// TrimSpace(containerID) + "\r\n" + ifname (CRLF on every OS, no final
// newline); files written by old releases hold the bare container ID. Readers
// compare the file's trimmed content, exactly as the reference does, so files
// either plugin wrote are understood by the other.

#include <string>
#include <string_view>

namespace wincni::hostlocal {

enum class Ownership { kNone, kExact, kLegacy };

class OwnerKey {
 public:
  OwnerKey(std::string_view container_id, std::string_view ifname);

  const std::string& container_id() const { return legacy_; }  // trimmed
  // What a reservation file for this attachment contains.
  const std::string& content() const { return exact_; }
  Ownership ownership(std::string_view file_content) const;

 private:
  std::string exact_;
  std::string legacy_;
};

// A reservation file with nothing in it has no owner any DEL would match: it
// is what a writer killed between creating and filling a file leaves behind
// (the reference can leave one; we cannot, see store.cpp). Under the lock no
// writer is active, so such a file is safe to release.
bool is_orphan(std::string_view file_content);

// The container ID a reservation file names (its first line), whichever
// format it has.
std::string_view owner_container_id(std::string_view file_content);

}  // namespace wincni::hostlocal
