#include "wincni/hostlocal/owner.hpp"

#include "go_strings.hpp"

namespace wincni::hostlocal {

namespace {
constexpr std::string_view kLineBreak = "\r\n";
}  // namespace

OwnerKey::OwnerKey(std::string_view container_id, std::string_view ifname) : legacy_(trim_space(container_id)) {
  exact_ = legacy_;
  exact_ += kLineBreak;
  exact_ += ifname;
}

Ownership OwnerKey::ownership(std::string_view file_content) const {
  const auto trimmed = trim_space(file_content);
  if (trimmed == exact_) return Ownership::kExact;
  if (trimmed == legacy_) return Ownership::kLegacy;
  return Ownership::kNone;
}

bool is_orphan(std::string_view file_content) { return trim_space(file_content).empty(); }

std::string_view owner_container_id(std::string_view file_content) {
  const std::string_view trimmed = trim_space(file_content);
  return trim_space(trimmed.substr(0, trimmed.find_first_of("\r\n")));
}

}  // namespace wincni::hostlocal
