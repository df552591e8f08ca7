// GC: the delegate collects its endpoints and addresses, then flannel its
// scratch files, for every attachment the runtime no longer has.

#include <set>

#include "delegate_config.hpp"
#include "flannel_plugin.hpp"
#include "wincni/cni/delegate.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/flannel/pod_delegate.hpp"
#include "wincni/flannel/scratch_store.hpp"

namespace wincni::flannel {

void FlannelPlugin::gc(const cni::CommandContext& ctx) const {
  const FlannelConfig config = read_flannel_config(ctx);
  const auto env = read_subnet_env(config.subnet_file);
  if (!env) throw cni::Error(cni::kTryAgainLater, missing_subnet_env_message(config.subnet_file));
  nlohmann::json delegate = delegate_config(config, *env);
  for (const char* key : {"cni.dev/valid-attachments", "cni.dev/attachments"}) {
    if (auto it = ctx.config.raw().find(key); it != ctx.config.raw().end()) delegate[key] = *it;
  }
  cni::delegate_gc(delegate.at("type").get<std::string>(), delegate.dump(), delegate_environment(ctx));

  std::set<std::string> valid;
  for (const cni::Attachment& attachment : ctx.config.valid_attachments()) valid.insert(attachment.container_id);
  const ScratchStore store(config.data_dir);
  const ScratchListing listing = store.list();
  for (const std::string& sandbox : listing.records) {
    if (!valid.contains(sandbox) && store.remove(sandbox))
      ctx.log().repair("removed {}: no valid attachment", store.path(sandbox));
  }
  for (const std::string& name : listing.others) {
    ctx.log().warn("{} is not a delegate config flannel saved (is dataDir {} flannel's own folder?): left alone",
                   store.path(name), store.dir());
  }
  store.remove_staging_leftovers();
}

}  // namespace wincni::flannel
