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

namespace wincni::flannel {

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

  // The sandboxes with a scratch file: every file named as a CNI container
  // ID may be one (the reference's files too).
  std::vector<std::string> sandboxes() const;
  // Removes staging files a killed writer left; how many.
  std::size_t remove_staging_leftovers() const;

 private:
  std::string dir_;
};

}  // namespace wincni::flannel
