// doctest's main, except that a run whose filters select no test case fails:
// the suites that run another suite's program with a --test-case filter
// (tests/meson.build) must not pass empty when a case is renamed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string_view>

namespace {

// Keeps how many test cases the run's filters selected.
struct SelectedCases : doctest::IReporter {
  static inline unsigned count = 0;
  explicit SelectedCases(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override { count = stats.numTestCasesPassingFilters; }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

REGISTER_LISTENER("selected-cases", 1, SelectedCases);

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int status = context.run();
  if (status != 0 || context.shouldExit()) return status;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument(argv[i]);
    const bool filters = argument.starts_with("--test-case=") || argument.starts_with("-tc=");
    if (filters && SelectedCases::count == 0) {
      std::fprintf(stderr, "doctest: %s selects no test case\n", argv[i]);
      return 1;
    }
  }
  return 0;
}
