#include "wincni/cni/env.hpp"

#include "wincni/os/process_environment.hpp"

namespace wincni::cni {

Environment Environment::from_process() {
  Environment env;
  for (const std::string& entry : os::current_process_environment()) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    // The first definition wins, as with getenv(3) and Go's os.Getenv, so a
    // duplicate cannot shadow what the runtime meant to pass.
    env.vars_.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return env;
}

std::optional<std::string> Environment::get(std::string_view name) const {
  if (auto it = vars_.find(name); it != vars_.end()) return it->second;
  return std::nullopt;
}

std::string Environment::get_or(std::string_view name, std::string_view fallback) const {
  if (auto it = vars_.find(name); it != vars_.end()) return it->second;
  return std::string(fallback);
}

void Environment::set(std::string name, std::string value) {
  vars_.insert_or_assign(std::move(name), std::move(value));
}

void Environment::unset(std::string_view name) {
  if (auto it = vars_.find(name); it != vars_.end()) vars_.erase(it);
}

std::vector<std::string> Environment::to_list() const {
  std::vector<std::string> list;
  list.reserve(vars_.size());
  for (const auto& [name, value] : vars_) list.push_back(name + "=" + value);
  return list;
}

}  // namespace wincni::cni
