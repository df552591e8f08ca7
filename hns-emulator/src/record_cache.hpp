#pragma once
// The objects of one kind that a call has read from the store, as the call
// changes them: a record is read the first time it is asked for, and the
// text it was read as is kept so that only records that really changed are
// written back. Records live in map nodes: pointers to them stay valid while
// others are added and erased.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wincni/hns/guid.hpp"

namespace wincni::hns::emulator {

template <class Record>
struct CachedRecord {
  std::optional<Record> current;      // nullopt: absent, or erased by this call
  std::optional<std::string> stored;  // the store's text; nullopt: not in the store
  std::uint64_t sequence = 0;         // creation order, for listings
};

template <class Record>
class RecordCache {
 public:
  using Slot = CachedRecord<Record>;
  // Reads one record's slot from the store (nullopt text when absent).
  using Loader = std::function<Slot(const Guid&)>;

  explicit RecordCache(Loader loader) : loader_(std::move(loader)) {}

  Record* find(const Guid& id) {
    auto& current = slot(id).current;
    return current ? &*current : nullptr;
  }

  Record& add(const Guid& id, Record record, std::uint64_t sequence) {
    Slot& entry = slot(id);
    entry.current = std::move(record);
    entry.sequence = sequence;
    return *entry.current;
  }

  void erase(const Guid& id) { slot(id).current.reset(); }

  // The present records among `ids`, oldest first.
  std::vector<Record*> present(std::vector<Guid> ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::vector<std::pair<std::uint64_t, Record*>> found;
    for (const Guid& id : ids) {
      Slot& entry = slot(id);
      if (entry.current) found.emplace_back(entry.sequence, &*entry.current);
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Record*> records;
    for (auto& item : found) records.push_back(item.second);
    return records;
  }

  // Every record this call has read or added (present or not).
  std::vector<Guid> seen() const {
    std::vector<Guid> ids;
    for (const auto& item : slots_) ids.push_back(item.first);
    return ids;
  }

  const std::map<Guid, std::unique_ptr<Slot>>& slots() const { return slots_; }

 private:
  Slot& slot(const Guid& id) {
    auto found = slots_.find(id);
    if (found == slots_.end()) found = slots_.emplace(id, std::make_unique<Slot>(loader_(id))).first;
    return *found->second;
  }

  Loader loader_;
  std::map<Guid, std::unique_ptr<Slot>> slots_;
};

}  // namespace wincni::hns::emulator
