#pragma once
// flannel's scratch files: the delegate config each pod's ADD handed over,
// saved in dataDir/<sandboxID> before delegating, so that DEL tears down
// exactly what ADD set up even when the config or subnet.env changed since
// (the reference's layout, so that an upgrade from it keeps its pods).
// Written whole under a staging name and renamed over the old one, so that
// a crash leaves the old file, the new one, or a staging leftover that GC
// removes; never a torn one.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace wincni::flannel {

// A saved delegate config: nullopt when it is not a JSON object with a
// string type (a torn or foreign file).
struct SavedDelegate {
  std::string type;
  nlohmann::json config;
};
std::optional<SavedDelegate> read_saved_delegate(std::string_view bytes);

// What a scratch folder holds: the sandboxes whose file is a saved delegate
// config (flannel's, or the reference's, records), and the other files with a
// container ID's name, which nothing of flannel's may remove: a dataDir
// pointed at the wrong folder (the bin folder, net.d, host-local's store,
// where "10.244.1.3" and "lock" are valid names) must not be emptied. A CNI
// config file (a .conf, .conflist or .json name, a network list, flannel's
// own config) is never a record.
struct ScratchListing {
  std::vector<std::string> records;
  std::vector<std::string> others;
};

class ScratchStore {
 public:
  explicit ScratchStore(std::string dir) : dir_(std::move(dir)) {}

  const std::string& dir() const { return dir_; }
  std::string path(std::string_view sandbox) const;

  void save(std::string_view sandbox, std::string_view config) const;
  // nullopt when there is none (or no data dir at all).
  std::optional<std::string> load(std::string_view sandbox) const;
  // False when there was none.
  bool remove(std::string_view sandbox) const;

  // The sandboxes with a scratch file, each file named as a CNI container ID
  // read to tell a record from anything else.
  ScratchListing list() const;
  // Removes staging files a killed writer left; how many.
  std::size_t remove_staging_leftovers() const;

 private:
  std::string dir_;
};

}  // namespace wincni::flannel
