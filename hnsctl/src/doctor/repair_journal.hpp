#pragma once
// The plugins' repair journal as doctor shows it: what ADD's self-healing,
// GC and the like deleted or moved on this node (an address given back to a
// live pod is the trace of an IPAM store that lost it), newest last. It is
// history, not a leftover: it changes neither what doctor removes nor its
// exit status (wincni/engine/repair_journal.hpp writes it).

#include <string>
#include <vector>

namespace wincni::hnsctl::doctor {

// The last `most` lines of `journal` and of its rotated predecessor
// (<journal>.1) before it; none when neither exists.
std::vector<std::string> recent_repairs(const std::string& journal, std::size_t most);

}  // namespace wincni::hnsctl::doctor
