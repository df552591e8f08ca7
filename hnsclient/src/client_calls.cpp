#include "client_calls.hpp"

#include <fmt/format.h>

#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns {

namespace {

// HNS's own words from an error record; nullopt when it is no record.
std::optional<std::string> record_text(const std::string& record) {
  Json parsed = Json::parse(record, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_object()) {
    if (const Json* error = json_io::field(parsed, "Error"); error && error->is_string())
      return error->get<std::string>();
  }
  return std::nullopt;
}

}  // namespace

namespace client_calls {

CallOutcome outcome_of(const HcnReply& reply, std::string operation) {
  if (reply.ok()) return CallOutcome{hr::kOk, reply.output, {}, std::move(operation)};
  if (reply.error_record.empty()) return CallOutcome{reply.hr, {}, {}, std::move(operation)};
  // A non-empty error record is a failure even with S_OK (hcsshim's rule).
  if (auto text = record_text(reply.error_record)) {
    return CallOutcome{failed(reply.hr) ? reply.hr : hr::kFail, {}, *text, std::move(operation)};
  }
  // No record at all: a failing HRESULT still says what happened; with S_OK
  // nothing readable is left, and HNS may have done the work.
  return CallOutcome{failed(reply.hr) ? reply.hr : hr::kInvalidJson,
                     {},
                     unreadable_answer_text("not an error record {\"Error\":\"<text>\"}", reply.error_record),
                     std::move(operation),
                     /*work_done=*/succeeded(reply.hr)};
}

std::string hcn_name(std::string_view verb, HcnObject kind) {
  std::string name = fmt::format("Hcn{}{}", verb, object_name(kind));
  if (verb == "Enumerate") name += 's';
  if (verb == "Query") name += "Properties";
  return name;
}

CallOutcome with_handle(HcnApi& api, HcnObject kind, const Guid& id, const std::function<CallOutcome(HcnHandle)>& use) {
  HcnHandle handle = nullptr;
  HcnReply opened = api.open(kind, id, &handle);
  if (!opened.ok()) {
    if (handle) api.close(kind, handle);
    return outcome_of(opened, hcn_name("Open", kind));
  }
  CallOutcome outcome = use(handle);
  api.close(kind, handle);
  return outcome;
}

std::string quoted(std::string_view kind, std::string_view name) { return fmt::format("{} \"{}\"", kind, name); }
std::string named(std::string_view kind, const Guid& id) { return fmt::format("{} {}", kind, id.str()); }

std::vector<Guid> ids_in(const Json& answer) {
  if (!answer.is_array()) throw SchemaError(SchemaError::Kind::Type, "answer", "expected a list of IDs");
  std::vector<Guid> ids;
  for (std::size_t i = 0; i < answer.size(); ++i) {
    const Json& item = answer[i];
    auto id = item.is_string() ? Guid::parse(item.get<std::string>()) : std::nullopt;
    if (!id) throw SchemaError(SchemaError::Kind::Value, fmt::format("[{}]", i), item.dump() + " is not an ID");
    ids.push_back(*id);
  }
  return ids;
}

HnsVersion version_in(const Json& answer) {
  json_io::require_object(answer, "version");
  return HnsVersion{json_io::read_uint<std::uint16_t>(answer, "Major"),
                    json_io::read_uint<std::uint16_t>(answer, "Minor")};
}

}  // namespace client_calls
}  // namespace wincni::hns
