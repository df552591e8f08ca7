// doctest's main, except that a run fails when one of its --test-case or
// --test-suite patterns selects no test case. The suites that run another
// suite's program with a filter (tests/meson.build, the emulator-variant
// suites) select by test suite: a case's suite is the list of the variants
// it runs in, as tags ("<hns-v1><hns-picks>", selected by "*<hns-v1>*"),
// since doctest gives a case one suite and a case runs in several variants.
// A renamed case keeps its tags; a tag nobody carries any more fails here.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cctype>
#include <cstdio>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

// The names of the test cases the run's filters selected.
struct SelectedCases : doctest::IReporter {
  static inline std::set<std::string> names;
  static inline std::set<std::string> suites;
  explicit SelectedCases(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData& data) override {
    names.insert(data.m_name);
    suites.insert(data.m_test_suite);
  }
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

// Whether every pattern of the last `flags` argument selected one of `selected`.
bool every_pattern_selects(int argc, char** argv, std::initializer_list<std::string_view> flags,
                           const std::set<std::string>& selected) {
  // doctest takes the last one it is given.
  std::string_view list;
  std::string_view given;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument(argv[i]);
    for (std::string_view flag : flags) {
      if (argument.starts_with(flag)) {
        list = argument.substr(flag.size());
        given = flag;
      }
    }
  }
  for (const std::string& pattern : patterns_of(list)) {
    if (pattern.empty()) continue;
    bool found = false;
    for (const std::string& name : selected) found = found || matches(pattern, name);
    if (!found) {
      std::fprintf(stderr, "doctest: %.*s pattern \"%s\" selects no test case\n", static_cast<int>(given.size() - 1),
                   given.data(), pattern.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int status = context.run();
  if (status != 0 || context.shouldExit()) return status;
  const bool cases = every_pattern_selects(argc, argv, {"--test-case=", "-tc="}, SelectedCases::names);
  const bool suites = every_pattern_selects(argc, argv, {"--test-suite=", "-ts="}, SelectedCases::suites);
  return cases && suites ? 0 : 1;
}
