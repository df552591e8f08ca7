#pragma once
// The delegated IPAM plugin (ipam.type), run as the runtime would run it,
// with the invocation's environment. ADD gets the config with the "ipam"
// object the flavor prepared; the other commands get stdin verbatim, so that
// IPAM releases and checks exactly what the runtime's config says.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/invocation.hpp"
#include "wincni/cni/early_add.hpp"
#include "wincni/cni/result.hpp"

namespace wincni::engine {

class IpamCalls {
 public:
  explicit IpamCalls(const Invocation& invocation) : invocation_(invocation) {}

  bool configured() const { return !invocation_.config.ipam_type.empty(); }

  // Starts IPAM's ADD before its config is known (early_add.hpp), into
  // `early`.
  void start_add(std::optional<cni::EarlyAdd>& early) const;
  // IPAM's ADD with `ipam` as the config's "ipam" object, through `early`
  // when it was started so.
  cni::Result add(const nlohmann::json& ipam, cni::EarlyAdd* early = nullptr) const;
  void del() const;
  // Reserves `addresses` for `container` (another pod's sandbox, whose live
  // endpoint holds them): an ADD for that container asking for them
  // (args.cni.ips, as host-local reads it; every address it holds, one per
  // range set, so that no other is allocated beside them), with `ipam` as
  // the config's "ipam" object. How a store that lost a live pod's
  // addresses learns them again from HNS. cni::Error when IPAM refuses or
  // reserves anything else.
  void give_back(const std::string& container, const std::vector<cni::IpAddress>& addresses,
                 const nlohmann::json& ipam) const;
  void check() const;
  void gc() const;
  void status() const;
  // Whether IPAM holds exactly `held`'s addresses for this container (a CHECK
  // with `held` as prevResult). Any error means no.
  bool confirms(const cni::Result& held) const;

 private:
  const Invocation& invocation_;
};

}  // namespace wincni::engine
