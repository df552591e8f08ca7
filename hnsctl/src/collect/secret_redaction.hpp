#pragma once
// What leaves a node in a support bundle must hold no secret. The bundle
// takes only kinds of files that hold none by design (CNI configs, the
// runtime's result cache, host-local's store, subnet.env, wincni's logs,
// HNS's objects), and every text in it still passes through here first:
// a value after a key that names a secret (token, password, passwd, secret,
// bearer, client-key-data, credentials, or the whole key auth) is replaced by "<redacted>", in
// JSON ("token": "..."), YAML (token: ...) and key=value form alike, and a
// PEM private key block loses its body. A config a plugin reads may carry a
// kubeconfig's token (calico's), and a log may quote a config.

#include <string>
#include <string_view>

namespace wincni::hnsctl::collect {

struct Redacted {
  std::string text;
  std::size_t values = 0;  // how many values were replaced
};

Redacted redact_secrets(std::string_view text);

}  // namespace wincni::hnsctl::collect
