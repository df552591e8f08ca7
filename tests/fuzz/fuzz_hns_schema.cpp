// HNS's JSON as hnsclient reads it, in both schemas: every object a reply or
// a request body can hold, and policies in either shape. A decoded object
// written back must read back as itself, and the emulator's v1/v2 views
// (v1_views.hpp) must take whatever the decoders accept.

#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"
#include "v1_views.hpp"
#include "wincni/hns/schema/hcn.hpp"
#include "wincni/hns/schema/hns_v1.hpp"
#include "wincni/hns/schema/json_io.hpp"
#include "wincni/hns/schema/policy.hpp"
#include "wincni/hns/schema/schema_error.hpp"

using namespace wincni::hns;

namespace {

// The decoded object, when `document` is one; its JSON must survive a trip
// through the decoder.
template <class Object>
std::optional<Object> decode(const json_io::Json& document) {
  std::optional<Object> object;
  if (!fuzz::tolerating<SchemaError>([&] { object = Object::from_json(document); })) return std::nullopt;
  json_io::Json written, rewritten;
  fuzz::tolerating<>([&] {
    written = object->to_json();
    rewritten = Object::from_json(written).to_json();
  });
  if (written != rewritten) {
    std::fprintf(stderr, "fuzz: changed on a round trip:\n%s\n%s\n", written.dump().c_str(), rewritten.dump().c_str());
    std::abort();
  }
  return object;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  json_io::Json document;
  if (!fuzz::tolerating<SchemaError>([&] { document = json_io::parse_object(fuzz::text(data, size), "fuzz"); })) {
    return 0;
  }

  auto network = decode<HostComputeNetwork>(document);
  auto endpoint = decode<HostComputeEndpoint>(document);
  auto ns = decode<HostComputeNamespace>(document);
  decode<ModifyRequest>(document);
  decode<HostComputeQuery>(document);
  decode<EndpointAttachRequest>(document);
  decode<HnsEnvelope>(document);
  auto v1_network = decode<HnsNetwork>(document);
  auto v1_endpoint = decode<HnsEndpoint>(document);
  decode<HnsNamespace>(document);

  fuzz::tolerating<>([&] {
    if (network) to_v1(*network, std::nullopt);
    if (network && endpoint) to_v1(*endpoint, *network);
    if (ns) to_v1(*ns);
  });
  fuzz::tolerating<SchemaError>([&] {
    if (v1_network) to_v2(*v1_network);
  });
  fuzz::tolerating<SchemaError>([&] {
    if (v1_endpoint) to_v2(*v1_endpoint);
  });

  fuzz::tolerating<SchemaError>([&] { render_v2(parse_policy_any(document)); });
  fuzz::tolerating<SchemaError>([&] { render_v1(parse_policy_v1(document)); });
  fuzz::tolerating<SchemaError>([&] { render_v2(parse_policy_v2(document)); });
  fuzz::tolerating<SchemaError>(
      [&] { render_policies_v1(parse_policies_v1(json_io::read_array(document, "Policies"))); });
  fuzz::tolerating<SchemaError>(
      [&] { render_policies_v2(parse_policies_v2(json_io::read_array(document, "Policies"))); });
  return 0;
}
