#pragma once
// Which reservation files name which container, so that ADD, DEL and CHECK
// read the few files of one attachment instead of every reservation of the
// network: with 5,000 reservations the whole scan made a win-bridge ADD six
// times as slow as on an empty node (docs/host-local.md, "The owner index").
//
// The index is a folder inside the network directory, 256 bucket files by a
// hash of the container ID, a line per reservation file: its name, a tab,
// the container ID its first line names (empty for an empty file, which
// DEL and GC release as an orphan). It is trusted only while the network
// directory's last-write time is the seal: a fixed moment in 2000 that only
// seal() sets. Creating, renaming or removing any entry of the directory --
// our reservations, the reference host-local's, an operator's `rm` -- sets
// that time to the present, so a change the index has not followed never
// passes for one it has; the store then reads every file and rebuilds it.
// Its files start with a header line, so their content is never a bare
// container ID the reference's walk of the folder could take for an owner.

#include <string>
#include <string_view>
#include <vector>

namespace wincni::hostlocal {

struct Snapshot;

class OwnerIndex {
 public:
  explicit OwnerIndex(std::string network_dir);

  // Whether the directory still carries the seal.
  bool sealed() const;
  // Stamps the directory; false when its file system refuses.
  bool seal() const;

  // The reservation file names recorded for `container_id` (as
  // owner_container_id() reads it from a file). Throws cni::Error on an
  // unreadable or malformed bucket.
  std::vector<std::string> names_for(std::string_view container_id) const;
  void add(std::string_view file_name, std::string_view container_id) const;
  void remove(std::string_view file_name, std::string_view container_id) const;
  // Every bucket written again from a full scan.
  void rebuild(const Snapshot& snapshot) const;

 private:
  struct Line {
    std::string file_name;
    std::string container_id;
  };
  std::string bucket_path(std::string_view container_id) const;
  std::vector<Line> read_bucket(const std::string& path) const;
  void write_bucket(const std::string& path, const std::vector<Line>& lines) const;

  std::string network_dir_;
  std::string folder_;
};

}  // namespace wincni::hostlocal
