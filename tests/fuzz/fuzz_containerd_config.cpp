// containerd's config.toml as wincni-install and hnsctl doctor read it, and
// the installer's patch of it.

#include "fuzz_input.hpp"
#include "wincni/cni/containerd_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace cni = wincni::cni;
  const std::string_view text = fuzz::text(data, size);
  const cni::ContainerdFolders builtin{{"C:\\Program Files\\containerd\\cni\\bin"},
                                       "C:\\Program Files\\containerd\\cni\\conf"};
  fuzz::tolerating<cni::ContainerdConfigError>([&] {
    const cni::ContainerdCniSettings settings = cni::read_containerd_cni_settings(text, builtin);
    cni::containerd_folder_mismatches(settings, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d");
    // What the patch writes is read back as containerd's config, and says
    // what was asked for.
    const std::string patched = cni::patch_containerd_cni_folders(text, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d");
    const cni::ContainerdCniSettings after = cni::read_containerd_cni_settings(patched, builtin);
    if (!cni::containerd_folder_mismatches(after, "C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d").empty()) {
      fuzz::unexpected("the patched file still points elsewhere", "patch");
    }
  });
  return 0;
}
