#pragma once
// What every fuzz target shares: the input as text, the rule that an API's
// documented exceptions are ordinary answers while anything else is a
// finding, and a scratch directory for targets that touch files.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <typeinfo>

#include <unistd.h>

namespace fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The input split at its first newline: a target that needs two strings (a
// CNI_ARGS and a config) reads them from one input, so that the fuzzer
// mutates both.
struct TwoParts {
  std::string_view first, rest;
};
inline TwoParts split_first_line(std::string_view input) {
  auto newline = input.find('\n');
  if (newline == std::string_view::npos) return {input, {}};
  return {input.substr(0, newline), input.substr(newline + 1)};
}

[[noreturn]] inline void unexpected(const char* what, const char* type) {
  std::fprintf(stderr, "fuzz: unexpected exception %s: %s\n", type, what);
  std::abort();
}

namespace detail {
template <class First, class... Rest>
bool is_one_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const First&) {
    return true;
  } catch (...) {
    if constexpr (sizeof...(Rest) > 0) {
      return is_one_of<Rest...>(error);
    } else {
      return false;
    }
  }
}
}  // namespace detail

// Runs `call`; an exception of one of the `Expected` types is an answer the
// API promises, anything else aborts with its type, so libFuzzer keeps the
// input as a crash. Returns whether `call` returned normally.
template <class... Expected, class Call>
bool tolerating(Call&& call) {
  try {
    call();
    return true;
  } catch (...) {
    auto error = std::current_exception();
    if constexpr (sizeof...(Expected) > 0) {
      if (detail::is_one_of<Expected...>(error)) return false;
    }
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      unexpected(e.what(), typeid(e).name());
    } catch (...) {
      unexpected("(not a std::exception)", "?");
    }
  }
}

// A directory `name` under this process's own directory in $TMPDIR, empty
// on every call: what one input leaves must not change what the next one
// meets. The process's directory goes when the process ends normally.
inline std::filesystem::path scratch_dir(const std::string& name) {
  // Never destroyed, so that the exit handler still has it.
  static const std::filesystem::path* const root = [] {
    auto* path = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                           ("wincni-fuzz-" + std::to_string(::getpid())));
    std::filesystem::create_directories(*path);
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(*root, ignored);
    });
    return path;
  }();
  const auto dir = *root / name;
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace fuzz
