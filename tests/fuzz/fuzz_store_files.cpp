// host-local's store: the input's first line is a container ID, the rest a
// reservation file's content; the whole input is also a file name in the
// network directory and a network name.

#include "file_names.hpp"
#include "fuzz_input.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/hostlocal/owner.hpp"

using namespace wincni;
using namespace wincni::hostlocal;

namespace {

[[noreturn]] void broken(const char* promise) {
  std::fprintf(stderr, "fuzz: %s\n", promise);
  std::abort();
}

void read_as_file_name(std::string_view name, bool escape_colons) {
  auto ip = ip_from_file_name(name, escape_colons);
  // A Windows file name never holds ':', so only a name without one must
  // come back as itself there.
  if (ip && !(escape_colons && name.find(':') != std::string_view::npos) && ip_file_name(*ip, escape_colons) != name) {
    broken("ip_from_file_name accepted a name that is not the address's own");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = fuzz::text(data, size);
  const auto [container_id, content] = fuzz::split_first_line(input);

  const OwnerKey key(container_id, "eth0");
  key.ownership(content);
  is_orphan(content);
  owner_container_id(content);
  // What this key writes, it must recognise as its own, and the file must
  // name its container, as runtimes' IDs (never blank, no line breaks) do.
  if (!key.container_id().empty() && key.container_id().find('\r') == std::string::npos) {
    if (key.ownership(key.content()) != Ownership::kExact) broken("a key does not own the file it writes");
    if (owner_container_id(key.content()) != key.container_id()) broken("a file does not name its container");
  }

  read_as_file_name(input, false);
  read_as_file_name(input, true);
  fuzz::tolerating<cni::Error>([&] { check_network_name(input); });
  return 0;
}
