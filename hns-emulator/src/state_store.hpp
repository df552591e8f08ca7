#pragma once
// The state directory, read and written under a lock so that a sequence of
// plugin processes sees one consistent host. One file per object, an index
// of empty files, and the few globals:
//   <dir>/state.lock                     the inter-process lock; never removed
//   <dir>/host.json                      the adapter, HNS version, call counts,
//                                        next compartment and creation number
//   <dir>/networks/<ID>.json             one network (likewise endpoints/,
//                                        namespaces/, loadbalancers/, sdnroutes/), with its creation number
//   <dir>/index/members/<network>/member/<endpoint>
//   <dir>/index/addresses/<network>/<address>/<endpoint>   (':' as '-')
//   <dir>/index/ports/<network>/<port mapping key>/<endpoint>
//   <dir>/index/macs/<48-bit MAC, hex>/<endpoint>
//   <dir>/index/names/<hash of the name>/name/<endpoint>
//   <dir>/commit.json                    a change under way (commit_record.hpp)
// Index entries are empty files; a key's directory exists while an entry
// holds the key. A call reads host.json and what it asks for: an object by
// ID is one file; whether an address or MAC is taken is one look at its key
// (a pick looks at candidates until one is free); port-mapping checks and
// filters by name or network list one index directory and read only the
// endpoints it names. A change writes
// the objects that changed and creates and removes the index entries that
// differ, all-or-nothing across a crash (commit_record.hpp). Listing every
// object (hnsctl, unfiltered enumerations) reads every file of the kind.
// Native and Wine processes share the directory and the lock.

#include <functional>
#include <string>

#include "state.hpp"

namespace wincni::hns::emulator {

class StateStore {
 public:
  explicit StateStore(std::string directory);

  const std::string& directory() const { return directory_; }

  // Runs `change` on the current state under the exclusive lock, and commits
  // what it changed when it returns true.
  void update(const std::function<bool(EmulatorState&)>& change);
  // Runs `look` on the current state under a shared lock; what it changes
  // is dropped.
  void inspect(const std::function<void(EmulatorState&)>& look);

 private:
  std::string directory_;
  std::string lock_path_;
};

}  // namespace wincni::hns::emulator
