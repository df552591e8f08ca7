#pragma once
// Base64 (RFC 4648, with padding), as Go's encoding/json writes a []byte:
// libcni's result cache keeps the network config that way, which collect
// opens so that its secrets meet the redaction and a maintainer can read it.

#include <optional>
#include <string>
#include <string_view>

namespace wincni::hnsctl::collect {

// nullopt for text that is not padded standard base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace wincni::hnsctl::collect
