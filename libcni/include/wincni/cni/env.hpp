#pragma once
// A snapshot of a process environment. Plugins read CNI_* from it and pass it
// on, with CNI_COMMAND replaced, to the plugins they delegate to; tests build
// one by hand instead of touching the real environment.
//
// Names match exactly, also on Windows (where the OS itself ignores case):
// runtimes set the CNI_* names in upper case, and an exact map keeps the
// order and spelling of what is passed on to delegates.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wincni::cni {

class Environment {
 public:
  Environment() = default;
  explicit Environment(const std::map<std::string, std::string>& vars) : vars_(vars.begin(), vars.end()) {}
  static Environment from_process();

  // nullopt when unset; an empty value is returned as "" (the skel treats
  // empty as missing for required variables).
  std::optional<std::string> get(std::string_view name) const;
  std::string get_or(std::string_view name, std::string_view fallback) const;
  void set(std::string name, std::string value);
  void unset(std::string_view name);

  const std::map<std::string, std::string, std::less<>>& vars() const { return vars_; }
  std::vector<std::string> to_list() const;  // "K=V" entries

 private:
  std::map<std::string, std::string, std::less<>> vars_;
};

}  // namespace wincni::cni
