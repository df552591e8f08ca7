#pragma once
// The fault matrix a test program swept (fault_sweep.hpp), printed as a
// table with its size when the program ends: which flows, commands and
// injected faults were run at how many HNS calls each, and how the command
// ended (succeeded, or the CNI error code it printed). It counts what ran;
// whether each case held is what the sweep's checks say.

#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace wincni::test {

class FaultMatrix {
 public:
  static FaultMatrix& instance() {
    static FaultMatrix matrix;
    return matrix;
  }

  // `code`: 0 when the command succeeded, the CNI error code it printed, or
  // -1 when it printed none (the process died).
  void record(const std::string& flow, const std::string& command, const std::string& action, int code) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++cases_[{flow, command, action}][code];
  }

  ~FaultMatrix() {
    if (cases_.empty()) return;
    std::size_t total = 0;
    std::printf("\nfault matrix: flow x command x fault, swept at every HNS call the command makes\n");
    std::printf("%-46s %-7s %-26s %5s  %s\n", "flow", "command", "fault", "calls", "outcomes");
    for (const auto& [key, outcomes] : cases_) {
      const auto& [flow, command, action] = key;
      std::size_t calls = 0;
      std::string summary;
      for (const auto& [code, count] : outcomes) {
        calls += count;
        const std::string outcome = code == 0    ? std::string("ok")
                                    : code == -1 ? std::string("died")
                                                 : "code " + std::to_string(code);
        summary += (summary.empty() ? "" : ", ") + outcome + " x" + std::to_string(count);
      }
      std::printf("%-46s %-7s %-26s %5zu  %s\n", flow.c_str(), command.c_str(), action.c_str(), calls, summary.c_str());
      total += calls;
    }
    std::printf("fault matrix size: %zu cases in %zu rows\n", total, cases_.size());
  }

 private:
  std::mutex mutex_;
  std::map<std::tuple<std::string, std::string, std::string>, std::map<int, std::size_t>> cases_;
};

}  // namespace wincni::test
