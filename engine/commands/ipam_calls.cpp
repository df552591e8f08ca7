#include "commands/ipam_calls.hpp"

#include <algorithm>

#include "wincni/cni/delegate.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/cni/version.hpp"

namespace wincni::engine {

namespace {

// `document` with `key` set, replacing whatever spelling of it was there.
nlohmann::json with_key(nlohmann::json document, std::string_view key, nlohmann::json value) {
  for (auto it = document.begin(); it != document.end();) {
    it = cni::equals_ignore_case(it.key(), key) ? document.erase(it) : std::next(it);
  }
  document[std::string(key)] = std::move(value);
  return document;
}

}  // namespace

void IpamCalls::start_add(std::optional<cni::EarlyAdd>& early) const {
  early.emplace(invocation_.config.ipam_type, std::string(invocation_.ctx.config.cni_version()), invocation_.env());
}

cni::Result IpamCalls::add(const nlohmann::json& ipam, cni::EarlyAdd* early) const {
  const auto& ctx = invocation_.ctx;
  std::string config = with_key(ctx.config.raw(), "ipam", ipam).dump();
  if (early != nullptr) return early->add(std::move(config));
  return cni::delegate_add(invocation_.config.ipam_type, config, ctx.config.cni_version(), invocation_.env());
}

void IpamCalls::give_back(const std::string& container, const std::vector<cni::IpAddress>& addresses,
                          const nlohmann::json& ipam) const {
  const auto& ctx = invocation_.ctx;
  nlohmann::json ips = nlohmann::json::array();
  for (const cni::IpAddress& address : addresses) ips.push_back(address.str());
  nlohmann::json config = with_key(ctx.config.raw(), "ipam", ipam);
  config = with_key(std::move(config), "args", {{"cni", {{"ips", ips}}}});
  cni::Environment env = invocation_.env();
  env.set("CNI_CONTAINERID", container);
  const cni::Result reserved =
      cni::delegate_add(invocation_.config.ipam_type, config.dump(), ctx.config.cni_version(), env);
  // An IPAM that ignores args.cni.ips would have reserved others instead.
  for (const cni::IpConfig& ip : reserved.ips) {
    if (std::find(addresses.begin(), addresses.end(), ip.address.address()) == addresses.end()) {
      throw cni::Error(cni::kTryAgainLater,
                       "IPAM reserved " + ip.address.str() + " instead of the addresses asked for");
    }
  }
}

void IpamCalls::del() const {
  cni::delegate_del(invocation_.config.ipam_type, invocation_.ctx.stdin_data, invocation_.env());
}

void IpamCalls::check() const {
  cni::delegate_check(invocation_.config.ipam_type, invocation_.ctx.stdin_data, invocation_.env());
}

void IpamCalls::gc() const {
  cni::delegate_gc(invocation_.config.ipam_type, invocation_.ctx.stdin_data, invocation_.env());
}

void IpamCalls::status() const {
  cni::delegate_status(invocation_.config.ipam_type, invocation_.ctx.stdin_data, invocation_.env());
}

bool IpamCalls::confirms(const cni::Result& held) const {
  const std::string version(cni::kCurrentVersion);
  nlohmann::json config = with_key(invocation_.ctx.config.raw(), "cniVersion", version);
  config = with_key(std::move(config), "prevResult", nlohmann::json(held.encode(version)));
  try {
    cni::delegate_check(invocation_.config.ipam_type, config.dump(), invocation_.env());
    return true;
  } catch (const cni::Error& e) {
    invocation_.log().info("IPAM does not confirm the existing endpoint's addresses: {}", e.msg());
    return false;
  }
}

}  // namespace wincni::engine
