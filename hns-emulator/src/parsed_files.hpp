#pragma once
// What this process last made of each of the store's files, by the file's
// text. A plugin's calls read the same few files again and again (win-bridge's
// ADD reads its network's file four times and host.json at every call), and
// turning their JSON into records was most of the cost of a call that only
// reads. A file is still read every time — another process may have changed
// it — and its record is reused only when its text is exactly what was parsed.

#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace wincni::hns::emulator {

template <class Value>
class ParsedFiles {
 public:
  // Files remembered at most: the few a command touches. Once full, what is
  // remembered stays and further files are parsed each time: a listing of
  // every object (hnsctl) would only churn through the memo.
  static constexpr std::size_t kCapacity = 64;

  // `parse` of `text`, or what it gave last time for the same path and text.
  // What `parse` throws is not remembered.
  Value get(const std::string& path, const std::string& text, const std::function<Value()>& parse) {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      if (auto it = by_path_.find(path); it != by_path_.end() && it->second.first == text) return it->second.second;
    }
    Value value = parse();
    std::lock_guard<std::mutex> guard(mutex_);
    if (by_path_.size() < kCapacity || by_path_.count(path) != 0) {
      by_path_.insert_or_assign(path, std::pair<std::string, Value>(text, value));
    }
    return value;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::pair<std::string, Value>> by_path_;
};

}  // namespace wincni::hns::emulator
