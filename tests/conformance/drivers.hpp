#pragma once
// Two ways to run the conformance plugin for one invocation: in this process
// through run_plugin (fast, and stdin can be made to fail), and as the real
// binary through run_process (the real main, real stdio, the exit status).
// Every conformance case runs with both (TEST_CASE_TEMPLATE over kDrivers).

#include <string>

#include <nlohmann/json.hpp>

#include "wincni/cni/env.hpp"

namespace wincni::test {

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
  // stdout parsed as exactly one JSON document.
  nlohmann::json answer() const;
};

struct InProcess {
  static constexpr const char* kName = "in process";
  static Outcome run(const cni::Environment& env, const std::string& stdin_text);
};

struct AsBinary {
  static constexpr const char* kName = "as a binary";
  static Outcome run(const cni::Environment& env, const std::string& stdin_text);
};

// Where the built wincni-conformance-plugin is (a compile definition).
std::string conformance_plugin_program();

}  // namespace wincni::test

#define CONFORMANCE_DRIVERS wincni::test::InProcess, wincni::test::AsBinary
