// Fault injection and the journal.

#include <fstream>
#include <thread>

#include "emulator_fixture.hpp"
#include "faults.hpp"
#include "journal.hpp"

using namespace hns_test;
namespace hr = wincni::hns::hr;
using wincni::hns::emulator::FaultAction;
using wincni::hns::emulator::parse_faults;

namespace {

std::vector<json> read_journal(const std::string& path) {
  std::vector<json> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  return lines;
}

}  // namespace

TEST_CASE("the fault specification") {
  auto faults = parse_faults("CreateEndpoint:2:fail=0x803B0001, ModifyNamespace:1:crash,CreateNetwork:3+:delay=500,X:1:hang");
  REQUIRE(faults.size() == 4);
  CHECK(faults[0].operation == "CreateEndpoint");
  CHECK(faults[0].call == 2);
  CHECK(faults[0].action == FaultAction::Fail);
  CHECK(faults[0].hresult == hr::kNetworkNotFound);
  CHECK(faults[1].action == FaultAction::Crash);
  CHECK(faults[2].and_later);
  CHECK(faults[2].delay_ms == 500);
  CHECK(faults[3].action == FaultAction::Hang);
  CHECK(parse_faults("").empty());
  CHECK_THROWS_WITH_AS(parse_faults("CreateEndpoint:2"), doctest::Contains("OPERATION:CALL:ACTION"),
                       std::invalid_argument);
  CHECK_THROWS_AS(parse_faults("CreateEndpoint:0:crash"), std::invalid_argument);
  CHECK_THROWS_AS(parse_faults("CreateEndpoint:1:fail=0x1"), std::invalid_argument);
  CHECK_THROWS_AS(parse_faults("CreateEndpoint:1:explode"), std::invalid_argument);
  CHECK_THROWS_AS(parse_faults("CreateEndpoint:1:delay=soon"), std::invalid_argument);
  CHECK_THROWS_AS(parse_faults("CreateEndpoint:1:hang=5"), std::invalid_argument);
  auto lose = parse_faults("CreateEndpoint:1:lose=0x800706BE");
  REQUIRE(lose.size() == 1);
  CHECK(lose[0].action == FaultAction::Lose);
  CHECK(lose[0].hresult == hr::kRpcCallFailed);
  CHECK_THROWS_WITH_AS(parse_faults("CreateEndpoint:1:lose"), doctest::Contains("lose needs a failing HRESULT"),
                       std::invalid_argument);
}

TEST_CASE("a lost answer: the call does its work, then answers the HRESULT") {
  EmulatorConfig config;
  config.faults = "CreateNetwork:1:lose=0x800706BE";
  EmulatorFixture fx(config);
  HcnHandle handle = nullptr;
  HcnReply lost = fx.emulator.create(HcnObject::Network, nullptr, {}, kBridgeNetwork, &handle);
  CHECK(lost.hr == hr::kRpcCallFailed);
  CHECK(handle == nullptr);
  // The network is there all the same: the next create finds its name taken.
  CHECK(fx.enumerate(HcnObject::Network).size() == 1);
  CHECK(fx.create(HcnObject::Network, kBridgeNetwork).hr == hr::kNetworkAlreadyExists);
}

TEST_CASE("the Nth call of an operation fails with the HRESULT, counted across emulator instances") {
  TempDir dir;
  EmulatorConfig config = config_for(dir.path());
  config.faults = "CreateNetwork:2:fail=0x800706BA";
  {
    Emulator first(config);
    HcnHandle handle = nullptr;
    REQUIRE(first.create(HcnObject::Network, nullptr, {}, kBridgeNetwork, &handle).ok());
    first.close(HcnObject::Network, handle);
  }
  Emulator second(config);  // another process would count the same way
  json other = json::parse(kBridgeNetwork);
  other["Name"] = "second";
  HcnHandle handle = nullptr;
  HcnReply failed = second.create(HcnObject::Network, nullptr, {}, other.dump(), &handle);
  CHECK(failed.hr == hr::kRpcServerUnavailable);
  CHECK(handle == nullptr);
  CHECK(json::parse(failed.error_record)["Error"] == "The RPC server is unavailable. ");
  // Nothing was created, and the third call goes through.
  REQUIRE(second.create(HcnObject::Network, nullptr, {}, other.dump(), &handle).ok());
  second.close(HcnObject::Network, handle);
}

TEST_CASE("N+ fails every call from the Nth on; v1 requests count as the same operation") {
  EmulatorConfig config;
  config.faults = "EnumerateNetworks:2+:fail=0x803B0020";
  EmulatorFixture fx(config);
  CHECK(fx.emulator.enumerate(HcnObject::Network, "").ok());
  CHECK(fx.emulator.enumerate(HcnObject::Network, "").hr == hr::kManagerStopped);
  CHECK(fx.emulator.hns_call("GET", "/networks/", "").hr == hr::kManagerStopped);
  CHECK(fx.emulator.hns_call("GET", "/globals/version", "").hr == hr::kOk);
}

TEST_CASE("a delay holds the call back") {
  EmulatorConfig config;
  config.faults = "EnumerateNamespaces:1:delay=150";
  EmulatorFixture fx(config);
  auto start = std::chrono::steady_clock::now();
  CHECK(fx.emulator.enumerate(HcnObject::Namespace, "").ok());
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(150));
}

TEST_CASE("a bad fault specification fails every call with a clear record") {
  EmulatorConfig config;
  config.faults = "CreateNetwork:first:crash";
  EmulatorFixture fx(config);
  HcnReply reply = fx.emulator.enumerate(HcnObject::Network, "");
  CHECK(reply.hr == hr::kInvalidArg);
  CHECK(json::parse(reply.error_record)["Error"].get<std::string>().find("CreateNetwork:first:crash") !=
        std::string::npos);
  CHECK(fx.emulator.hns_call("GET", "/globals/version", "").hr == hr::kInvalidArg);
}

TEST_CASE("the journal has one JSON line per call with op, input, hresult and output") {
  TempDir journal_dir;
  std::string journal = journal_dir.path() + "/calls.jsonl";
  EmulatorConfig config;
  config.journal_path = journal;
  EmulatorFixture fx(config);
  Guid network = fx.network();
  fx.create(HcnObject::Network, kBridgeNetwork);  // duplicate: fails
  fx.call("GET", "/globals/version");

  auto lines = read_journal(journal);
  REQUIRE(lines.size() >= 5);
  CHECK(lines[0]["op"] == "HcnCreateNetwork");
  CHECK(lines[0]["input"]["Settings"]["Name"] == "cbr0");
  CHECK(lines[0]["input"]["Id"] == std::string(wincni::hns::kNullGuidText));
  CHECK(lines[0]["hresult"] == "0x00000000");
  CHECK(lines[0]["output"]["ID"] == network.str());
  auto failed = std::find_if(lines.begin(), lines.end(), [](const json& line) { return line["hresult"] != "0x00000000"; });
  REQUIRE(failed != lines.end());
  CHECK((*failed)["op"] == "HcnCreateNetwork");
  CHECK((*failed)["hresult"] == "0x803B0010");
  CHECK((*failed)["output"]["ErrorCode"] == hr::kNetworkAlreadyExists);
  CHECK((*failed)["detail"].get<std::string>().find("cbr0") != std::string::npos);
  CHECK(lines.back()["op"] == "HNSCall");
  CHECK(lines.back()["input"]["Path"] == "/globals/version");
  CHECK(lines.back()["output"]["Output"]["Major"] == 15);
}

TEST_CASE("the emulator works without a journal and does not create one") {
  EmulatorFixture fx;
  fx.network();
  CHECK_FALSE(std::filesystem::exists(fx.dir.path() + "/journal"));
  CHECK(std::filesystem::exists(fx.dir.path() + "/state.json"));
  CHECK(std::filesystem::exists(fx.dir.path() + "/state.lock"));
}
