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
  auto faults =
      parse_faults("CreateEndpoint:2:fail=0x803B0001, ModifyNamespace:1:crash,CreateNetwork:3+:delay=500,X:1:hang");
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

TEST_CASE("the fault specification: garble, garble=text and garble=shape") {
  using wincni::hns::emulator::Garbling;
  auto faults =
      parse_faults("QueryEndpointProperties:1:garble,CreateEndpoint:2:garble=text,EnumerateEndpoints:1+:garble=shape");
  REQUIRE(faults.size() == 3);
  CHECK(faults[0].action == FaultAction::Garble);
  CHECK(faults[0].garbling == Garbling::Text);
  CHECK(faults[1].garbling == Garbling::Text);
  CHECK(faults[2].garbling == Garbling::Shape);
  CHECK(faults[2].and_later);
  CHECK_THROWS_WITH_AS(parse_faults("CreateEndpoint:1:garble=loud"), doctest::Contains("garble=shape"),
                       std::invalid_argument);
}

TEST_CASE("a lost answer: the call does its work, then answers the HRESULT") {
  EmulatorFixture fx(with_faults("CreateNetwork:1:lose=0x800706BE"));
  HcnHandle handle = nullptr;
  HcnReply lost = fx.emulator.create(HcnObject::Network, nullptr, {}, kBridgeNetwork, &handle);
  CHECK(lost.hr == hr::kRpcCallFailed);
  CHECK(handle == nullptr);
  // The network is there all the same: the next create finds its name taken.
  CHECK(fx.enumerate(HcnObject::Network).size() == 1);
  CHECK(fx.create(HcnObject::Network, kBridgeNetwork).hr == hr::kNetworkAlreadyExists);
}

TEST_CASE("a garbled answer: an HCN output cut short is not JSON, and the next call is whole") {
  EmulatorFixture fx(with_faults("EnumerateNetworks:1:garble"));
  Guid network = fx.network();
  HcnReply garbled = fx.emulator.enumerate(HcnObject::Network, "");
  CHECK(garbled.hr == hr::kOk);
  CHECK(garbled.error_record.empty());
  CHECK(garbled.output == "[\"" + network.str() + "\"");
  CHECK(json::parse(garbled.output, nullptr, false).is_discarded());
  CHECK(fx.enumerate(HcnObject::Network) == json::array({network.str()}));
}

TEST_CASE("a garbled answer in shape: every value of the wrong type, an empty list [null]") {
  EmulatorFixture fx(with_faults("QueryNetworkProperties:1:garble=shape,EnumerateNamespaces:1:garble=shape"));
  REQUIRE(fx.create(HcnObject::Network, kBridgeNetwork).ok());  // asks for no properties
  Guid network = *Guid::parse(fx.enumerate(HcnObject::Network)[0].get<std::string>());
  json properties = fx.get(HcnObject::Network, network);
  CHECK(properties["ID"] == json::array({network.str()}));
  CHECK(properties["SchemaVersion"]["Major"] == "2");
  CHECK(properties["Ipams"][0]["Subnets"][0]["IpAddressPrefix"] == json::array({"10.244.1.0/24"}));
  CHECK(fx.get(HcnObject::Network, network)["ID"] == network.str());
  CHECK(fx.enumerate(HcnObject::Namespace) == json::array({nullptr}));
}

TEST_CASE("a garbled answer of an HCN call without output: S_OK with an unreadable error record, the work done") {
  EmulatorFixture fx(with_faults("CreateNetwork:1:garble,CreateNamespace:1:garble=shape"));
  HcnHandle handle = nullptr;
  HcnReply created = fx.emulator.create(HcnObject::Network, nullptr, {}, kBridgeNetwork, &handle);
  CHECK(created.hr == hr::kOk);
  CHECK_FALSE(created.ok());
  CHECK(handle == nullptr);
  CHECK(created.error_record == wincni::hns::error_record(hr::kOk).substr(0, created.error_record.size()));
  CHECK(json::parse(created.error_record, nullptr, false).is_discarded());
  CHECK(fx.enumerate(HcnObject::Network).size() == 1);

  HcnReply ns = fx.create(HcnObject::Namespace, "{}");
  CHECK(ns.hr == hr::kOk);
  json record = json::parse(ns.error_record);
  CHECK(record["Success"] == "false");
  CHECK(record["ErrorCode"] == "0");
  CHECK(fx.enumerate(HcnObject::Namespace).size() == 1);
}

TEST_CASE("a garbled HNSCall answer: the envelope cut short, or its Output (else itself) in the wrong shape") {
  EmulatorFixture fx(with_faults("EnumerateNetworks:1:garble,GetVersion:1:garble=shape,DeleteNetwork:1:garble=shape"));
  Guid network = fx.network();
  wincni::hns::HnsCallReply cut = fx.emulator.hns_call("GET", "/networks/", "");
  CHECK(cut.hr == hr::kOk);
  CHECK(cut.response.rfind("{\"Output\":[{", 0) == 0);
  CHECK(json::parse(cut.response, nullptr, false).is_discarded());

  json version = fx.call("GET", "/globals/version");
  CHECK(version["Success"] == true);
  CHECK(version["Output"] == json{{"Major", "15"}, {"Minor", "4"}});

  CHECK(fx.call("DELETE", "/networks/" + network.str()) == json{{"Success", "true"}});
  CHECK(fx.enumerate(HcnObject::Network).empty());
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
  EmulatorFixture fx(with_faults("EnumerateNetworks:2+:fail=0x803B0020"));
  CHECK(fx.emulator.enumerate(HcnObject::Network, "").ok());
  CHECK(fx.emulator.enumerate(HcnObject::Network, "").hr == hr::kManagerStopped);
  CHECK(fx.emulator.hns_call("GET", "/networks/", "").hr == hr::kManagerStopped);
  CHECK(fx.emulator.hns_call("GET", "/globals/version", "").hr == hr::kOk);
}

TEST_CASE("a delay holds the call back") {
  EmulatorFixture fx(with_faults("EnumerateNamespaces:1:delay=150"));
  auto start = std::chrono::steady_clock::now();
  CHECK(fx.emulator.enumerate(HcnObject::Namespace, "").ok());
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(150));
}

TEST_CASE("a bad fault specification fails every call with a clear record") {
  EmulatorFixture fx(with_faults("CreateNetwork:first:crash"));
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
  auto failed =
      std::find_if(lines.begin(), lines.end(), [](const json& line) { return line["hresult"] != "0x00000000"; });
  REQUIRE(failed != lines.end());
  CHECK((*failed)["op"] == "HcnCreateNetwork");
  CHECK((*failed)["hresult"] == "0x803B0010");
  CHECK((*failed)["output"]["ErrorCode"] == hr::kNetworkAlreadyExists);
  CHECK((*failed)["detail"].get<std::string>().find("cbr0") != std::string::npos);
  CHECK(lines.back()["op"] == "HNSCall");
  CHECK(lines.back()["input"]["Path"] == "/globals/version");
  CHECK(lines.back()["output"]["Output"]["Major"] == 15);
}

TEST_CASE("the journal gives the emulator's own time on each call, a delay included") {
  TempDir journal_dir;
  std::string journal = journal_dir.path() + "/calls.jsonl";
  EmulatorConfig config = with_faults("EnumerateNamespaces:1:delay=150");
  config.journal_path = journal;
  EmulatorFixture fx(config);
  fx.network();
  CHECK(fx.emulator.enumerate(HcnObject::Namespace, "").ok());

  auto lines = read_journal(journal);
  REQUIRE(lines.size() >= 2);
  for (const json& line : lines) {
    INFO(line.dump());
    REQUIRE(line["micros"].is_number_unsigned());
  }
  CHECK(lines.front()["op"] == "HcnCreateNetwork");
  CHECK(lines.front()["micros"].get<std::int64_t>() < 150'000);
  CHECK(lines.back()["op"] == "HcnEnumerateNamespaces");
  CHECK(lines.back()["micros"].get<std::int64_t>() >= 150'000);
}

TEST_CASE("the emulator works without a journal and does not create one") {
  EmulatorFixture fx;
  fx.network();
  CHECK_FALSE(std::filesystem::exists(fx.dir.path() + "/journal"));
  CHECK(std::filesystem::exists(fx.dir.path() + "/host.json"));
  CHECK(std::filesystem::exists(fx.dir.path() + "/state.lock"));
}
