#include "faults.hpp"

#include <charconv>
#include <stdexcept>

namespace wincni::hns::emulator {
namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (;;) {
    size_t at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool parse_number(std::string_view text, std::uint64_t& out) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return error == std::errc{} && end == text.data() + text.size();
}

[[noreturn]] void bad(std::string_view entry, std::string_view why) {
  throw std::invalid_argument("WINCNI_EMULATOR_FAULTS entry \"" + std::string(entry) + "\": " + std::string(why));
}

Fault parse_entry(std::string_view entry) {
  auto fields = split(entry, ':');
  if (fields.size() != 3) bad(entry, "expected OPERATION:CALL:ACTION");
  Fault fault;
  fault.operation = std::string(trim(fields[0]));
  if (fault.operation.empty()) bad(entry, "no operation");

  std::string_view call = trim(fields[1]);
  if (!call.empty() && call.back() == '+') {
    fault.and_later = true;
    call.remove_suffix(1);
  }
  if (!parse_number(call, fault.call) || fault.call == 0) bad(entry, "CALL must be N or N+ with N >= 1");

  std::string_view action = trim(fields[2]);
  std::string_view argument;
  if (size_t equals = action.find('='); equals != std::string_view::npos) {
    argument = action.substr(equals + 1);
    action = action.substr(0, equals);
  }
  std::uint64_t number = 0;
  if (action == "fail" || action == "lose") {
    fault.action = action == "fail" ? FaultAction::Fail : FaultAction::Lose;
    if (!parse_number(argument, number) || number > 0xFFFFFFFFu || !failed(static_cast<HResult>(number))) {
      bad(entry, std::string(action) + " needs a failing HRESULT, e.g. " + std::string(action) + "=0x800706BA");
    }
    fault.hresult = static_cast<HResult>(number);
  } else if (action == "delay") {
    fault.action = FaultAction::Delay;
    if (!parse_number(argument, fault.delay_ms)) bad(entry, "delay needs milliseconds, e.g. delay=500");
  } else if (action == "garble") {
    fault.action = FaultAction::Garble;
    if (argument == "shape") {
      fault.garbling = Garbling::Shape;
    } else if (!argument.empty() && argument != "text") {
      bad(entry, "garble is garble (the same as garble=text) or garble=shape");
    }
  } else if (action == "hang" || action == "crash") {
    if (!argument.empty()) bad(entry, "takes no argument");
    fault.action = action == "hang" ? FaultAction::Hang : FaultAction::Crash;
  } else {
    bad(entry, "ACTION is fail=HRESULT, lose=HRESULT, delay=MS, hang, crash, garble or garble=shape");
  }
  return fault;
}

}  // namespace

std::vector<Fault> parse_faults(std::string_view spec) {
  std::vector<Fault> faults;
  if (trim(spec).empty()) return faults;
  for (std::string_view entry : split(spec, ',')) {
    entry = trim(entry);
    if (!entry.empty()) faults.push_back(parse_entry(entry));
  }
  return faults;
}

bool FaultPlan::watches(std::string_view operation) const {
  for (const auto& fault : faults_) {
    if (fault.operation == operation) return true;
  }
  return false;
}

std::optional<Fault> FaultPlan::due(std::string_view operation, std::uint64_t call) const {
  for (const auto& fault : faults_) {
    if (fault.operation != operation) continue;
    if (call == fault.call || (fault.and_later && call > fault.call)) return fault;
  }
  return std::nullopt;
}

}  // namespace wincni::hns::emulator
