#pragma once
// Which reservation files name which container, so that ADD, DEL and CHECK
// read the few files of one attachment instead of every reservation of the
// network: with 5,000 reservations the whole scan made a win-bridge ADD six
// times as slow as on an empty node (docs/host-local.md, "The owner index").
//
// The index is a folder inside the network directory holding up to 256
// bucket files, chosen by a hash of the container ID; each is a header line
// and then a line per reservation file: its name, a tab, the container ID
// its first line names (empty for an empty file, the orphans DEL and GC
// release); a bucket with no line is removed. It is trusted only while both
// the network directory and the folder carry their seal
// (directory_seal.hpp), set after the index has followed every change: a
// change behind its back breaks one or the other (removing a bucket breaks
// the folder's), and an unparsable bucket counts as damage. Buckets are
// replaced by a rename, so that after a power cut a bucket is either its
// old self, and then the seal set after it is lost as well, or whole, or
// empty (unparsable).
// The header keeps a bucket's content from ever being a bare container ID
// the reference's walk of the folder could take for an owner.

#include <string>
#include <string_view>
#include <vector>

namespace wincni::hostlocal {

struct Snapshot;

class OwnerIndex {
 public:
  explicit OwnerIndex(std::string network_dir);

  bool sealed() const;
  // False when the file system refuses.
  bool seal() const;

  // The reservation file names recorded for `container_id` (as
  // owner_container_id() reads it from a file). Throws cni::Error when the
  // bucket is unreadable or malformed.
  std::vector<std::string> names_for(std::string_view container_id) const;
  void add(std::string_view file_name, std::string_view container_id) const;
  void remove(std::string_view file_name, std::string_view container_id) const;
  // Every bucket made to say what a full scan read.
  void rebuild(const Snapshot& snapshot) const;

 private:
  struct Line {
    std::string file_name;
    std::string container_id;
  };
  static std::string text_of(const std::vector<Line>& lines);
  std::string bucket_name(std::string_view container_id) const;
  std::vector<Line> read_bucket(const std::string& name) const;
  void write_bucket(const std::string& name, const std::vector<Line>& lines) const;

  std::string network_dir_;
  std::string folder_;
};

}  // namespace wincni::hostlocal
