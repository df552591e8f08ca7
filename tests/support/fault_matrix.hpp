#pragma once
// The fault matrix a test program swept (fault_sweep.hpp), printed as a
// table with its size when the program ends: which flows, commands and
// injected faults were run at how many HNS calls each. It counts what ran;
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

  void record(const std::string& flow, const std::string& command, const std::string& action) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++cases_[{flow, command, action}];
  }

  ~FaultMatrix() {
    if (cases_.empty()) return;
    std::size_t total = 0;
    std::printf("\nfault matrix: flow x command x fault, swept at every HNS call the command makes\n");
    std::printf("%-52s %-8s %-22s %6s\n", "flow", "command", "fault", "calls");
    for (const auto& [key, calls] : cases_) {
      const auto& [flow, command, action] = key;
      std::printf("%-52s %-8s %-22s %6zu\n", flow.c_str(), command.c_str(), action.c_str(), calls);
      total += calls;
    }
    std::printf("fault matrix size: %zu cases in %zu rows\n", total, cases_.size());
  }

 private:
  std::mutex mutex_;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> cases_;
};

}  // namespace wincni::test
