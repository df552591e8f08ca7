// The HCS compute-system entry points of the emulator (vmcompute.dll's
// Hcs*ComputeSystem), enough of them for a runtime to create and end
// containers and for a CNI plugin to hot-add endpoints to them.

#include <cstdint>

#include "emulator_impl.hpp"
#include "error_texts.hpp"
#include "failure.hpp"
#include "garbling.hpp"
#include "wincni/cni/json_depth.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns::emulator {
namespace {

using json_io::Json;

// HCS's result document, which hcsshim's processHcsResult reads: the
// HRESULT as a signed integer and the system's text for it.
std::string hcs_result(HResult code, const std::string& text) {
  return Json{{"Error", static_cast<std::int32_t>(code)}, {"ErrorMessage", text}}.dump();
}

std::string hcs_result(HResult code, const Emulator::Impl& impl) {
  std::string text = hns_error_text(code, impl.config.error_texts);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return hcs_result(code, text);
}

// As for HCN (garbling.hpp): a garbled call without output answers S_OK
// with a result document garbled the same way.
HcnReply hcs_reply_of(const Outcome& outcome, const Emulator::Impl& impl) {
  if (failed(outcome.hr)) {
    return HcnReply{
        outcome.hr, {}, outcome.explain ? hcs_result(outcome.hr, outcome.detail) : hcs_result(outcome.hr, impl)};
  }
  if (outcome.garbled) {
    if (outcome.output.empty()) return HcnReply{outcome.hr, {}, garbled(hcs_result(hr::kFail, impl), *outcome.garbled)};
    return HcnReply{outcome.hr, garbled(outcome.output, *outcome.garbled), {}};
  }
  return HcnReply{outcome.hr, outcome.output, {}};
}

Json parse_document(std::string_view text, const char* what) {
  if (cni::too_deeply_nested(text)) {
    throw HcnFailure(hr::kHcsInvalidJson, std::string(what) + " is nested too deeply");
  }
  Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) throw HcnFailure(hr::kHcsInvalidJson, std::string(what) + " is not JSON");
  return parsed;
}

}  // namespace

HcnReply Emulator::hcs_create(std::string_view id, std::string_view configuration, HcsHandle* system) {
  Outcome outcome = impl_->run("CreateComputeSystem", HcnObject::Endpoint, Access::Write, [&](Host& host) {
    host.create_compute_system(std::string(id), parse_document(configuration, "the configuration"));
    return std::string{};
  });
  HcnReply reply = hcs_reply_of(outcome, *impl_);
  if (system) *system = reply.ok() ? impl_->open_system(std::string(id)) : nullptr;
  impl_->finish(
      "HcsCreateComputeSystem",
      [&] {
        return Json{{"Id", id}, {"Configuration", Journal::embed(configuration)}};
      },
      reply.hr, reply.error_record, outcome);
  return reply;
}

HcnReply Emulator::hcs_open(std::string_view id, HcsHandle* system) {
  Outcome outcome = impl_->run("OpenComputeSystem", HcnObject::Endpoint, Access::Read, [&](Host& host) {
    host.compute_system(id);
    return std::string{};
  });
  HcnReply reply = hcs_reply_of(outcome, *impl_);
  // HCS keeps the ID it was asked for; the store compares IDs ignoring case.
  if (system) *system = reply.ok() ? impl_->open_system(std::string(id)) : nullptr;
  impl_->finish(
      "HcsOpenComputeSystem",
      [&] {
        return Json{{"Id", id}};
      },
      reply.hr, reply.error_record, outcome);
  return reply;
}

HcnReply Emulator::hcs_properties(HcsHandle system, std::string_view query) {
  Outcome outcome = impl_->run("GetComputeSystemProperties", HcnObject::Endpoint, Access::Read, [&](Host& host) {
    if (!query.empty()) parse_document(query, "the property query");
    return host.compute_system_properties(host.compute_system(impl_->resolve_system(system))).dump();
  });
  HcnReply reply = hcs_reply_of(outcome, *impl_);
  impl_->finish(
      "HcsGetComputeSystemProperties",
      [&] {
        return Json{{"System", impl_->describe_handle(system)}, {"Query", Journal::embed(query)}};
      },
      reply.hr, reply.ok() ? reply.output : reply.error_record, outcome);
  return reply;
}

HcnReply Emulator::hcs_modify(HcsHandle system, std::string_view configuration) {
  Outcome outcome = impl_->run("ModifyComputeSystem", HcnObject::Endpoint, Access::Write, [&](Host& host) {
    host.modify_compute_system(impl_->resolve_system(system), parse_document(configuration, "the modify request"));
    return std::string{};
  });
  HcnReply reply = hcs_reply_of(outcome, *impl_);
  impl_->finish(
      "HcsModifyComputeSystem",
      [&] {
        return Json{{"System", impl_->describe_handle(system)}, {"Configuration", Journal::embed(configuration)}};
      },
      reply.hr, reply.error_record, outcome);
  return reply;
}

HcnReply Emulator::hcs_terminate(HcsHandle system) {
  Outcome outcome = impl_->run("TerminateComputeSystem", HcnObject::Endpoint, Access::Write, [&](Host& host) {
    host.terminate_compute_system(impl_->resolve_system(system));
    return std::string{};
  });
  HcnReply reply = hcs_reply_of(outcome, *impl_);
  impl_->finish(
      "HcsTerminateComputeSystem",
      [&] {
        return Json{{"System", impl_->describe_handle(system)}};
      },
      reply.hr, reply.error_record, outcome);
  return reply;
}

void Emulator::hcs_close(HcsHandle system) {
  Json described = impl_->journal.enabled() ? impl_->describe_handle(system) : Json();
  impl_->close_system(system);
  impl_->journal.record("HcsCloseComputeSystem", [&] { return Json{{"System", described}}; }, hr::kOk, {});
}

}  // namespace wincni::hns::emulator
