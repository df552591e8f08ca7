// doctest's main, except that a run fails when one of its --test-case
// patterns selects no test case: the suites that run another suite's program
// with a filter (tests/meson.build, the emulator-variant suites) must not
// lose a case silently when it is renamed, which a run that only checked for
// "some case selected" would allow as long as another pattern still matched.
// (doctest's test suites cannot say this: a case belongs to one suite, and a
// case runs in several variants.)
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cctype>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

// The names of the test cases the run's filters selected.
struct SelectedCases : doctest::IReporter {
  static inline std::set<std::string> names;
  explicit SelectedCases(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData& data) override { names.insert(data.m_name); }
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

// doctest's wildcards: '*' any run, '?' any one character, case ignored
// (the runs here never pass -cs).
bool matches(std::string_view pattern, std::string_view name) {
  if (pattern.empty()) return name.empty();
  if (pattern.front() == '*') {
    for (std::size_t skip = 0; skip <= name.size(); ++skip) {
      if (matches(pattern.substr(1), name.substr(skip))) return true;
    }
    return false;
  }
  if (name.empty()) return false;
  const bool same = pattern.front() == '?' || std::tolower(static_cast<unsigned char>(pattern.front())) ==
                                                  std::tolower(static_cast<unsigned char>(name.front()));
  return same && matches(pattern.substr(1), name.substr(1));
}

// The comma-separated patterns of a filter ("\," is a comma in a pattern).
std::vector<std::string> patterns_of(std::string_view list) {
  std::vector<std::string> patterns(1);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i] == '\\' && i + 1 < list.size() && list[i + 1] == ',') {
      patterns.back() += ',';
      ++i;
    } else if (list[i] == ',') {
      patterns.emplace_back();
    } else {
      patterns.back() += list[i];
    }
  }
  return patterns;
}

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int status = context.run();
  if (status != 0 || context.shouldExit()) return status;
  // doctest takes the last --test-case it is given.
  std::string_view list;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument(argv[i]);
    for (std::string_view flag : {"--test-case=", "-tc="}) {
      if (argument.starts_with(flag)) list = argument.substr(flag.size());
    }
  }
  if (!list.empty()) {
    for (const std::string& pattern : patterns_of(list)) {
      if (pattern.empty()) continue;
      bool selected = false;
      for (const std::string& name : SelectedCases::names) selected = selected || matches(pattern, name);
      if (!selected) {
        std::fprintf(stderr, "doctest: --test-case pattern \"%s\" selects no test case\n", pattern.c_str());
        return 1;
      }
    }
  }
  return 0;
}
