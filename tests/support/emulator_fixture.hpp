#pragma once
// An emulator on a fresh state directory, and shorthands for the HCN calls
// the tests make.

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "wincni/hns/emulator/emulator.hpp"
#include "wincni/hns/hresult.hpp"

namespace hns_test {

using nlohmann::json;
using wincni::hns::Guid;
using wincni::hns::HcnHandle;
using wincni::hns::HcnObject;
using wincni::hns::HcnReply;
using wincni::hns::HcsHandle;
using wincni::hns::HResult;
using wincni::hns::emulator::Emulator;
using wincni::hns::emulator::EmulatorConfig;

// A directory under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "wincni-hns-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline EmulatorConfig config_for(const std::string& dir) {
  EmulatorConfig config;
  config.state_dir = dir;
  return config;
}

// A configuration with only fault injection (faults.hpp) set.
inline EmulatorConfig with_faults(const std::string& faults) {
  EmulatorConfig config;
  config.faults = faults;
  return config;
}

constexpr const char* kBridgeNetwork = R"({"Name":"cbr0","Type":"L2Bridge",
  "Ipams":[{"Type":"Static","Subnets":[{"IpAddressPrefix":"10.244.1.0/24",
           "Routes":[{"NextHop":"10.244.1.1","DestinationPrefix":"0.0.0.0/0"}]}]}],
  "SchemaVersion":{"Major":2,"Minor":0}})";

struct EmulatorFixture {
  TempDir dir;
  Emulator emulator;

  EmulatorFixture() : emulator(config_for(dir.path())) {}
  explicit EmulatorFixture(EmulatorConfig config)
      : emulator([&] {
          config.state_dir = dir.path();
          return config;
        }()) {}

  // Creates and closes; the reply's ID is returned (null GUID on failure).
  HcnReply create(HcnObject kind, const std::string& settings, Guid* id = nullptr, HcnHandle network = nullptr,
                  const Guid& wanted = {}) {
    HcnHandle handle = nullptr;
    HcnReply reply = emulator.create(kind, network, wanted, settings, &handle);
    if (handle) {
      if (id) *id = *Guid::parse(properties(kind, handle)["ID"].get<std::string>());
      emulator.close(kind, handle);
    }
    return reply;
  }

  json properties(HcnObject kind, HcnHandle handle) {
    HcnReply reply = emulator.query_properties(kind, handle, "");
    REQUIRE(reply.ok());
    return json::parse(reply.output);
  }

  json get(HcnObject kind, const Guid& id) {
    HcnHandle handle = nullptr;
    HcnReply reply = emulator.open(kind, id, &handle);
    REQUIRE(reply.ok());
    json result = properties(kind, handle);
    emulator.close(kind, handle);
    return result;
  }

  Guid network(const std::string& settings = kBridgeNetwork) {
    Guid id;
    HcnReply reply = create(HcnObject::Network, settings, &id);
    REQUIRE_MESSAGE(reply.ok(), reply.error_record);
    return id;
  }

  // Creates an endpoint on `network_id`.
  HcnReply endpoint(const Guid& network_id, const std::string& settings, Guid* id = nullptr) {
    HcnHandle network_handle = nullptr;
    REQUIRE(emulator.open(HcnObject::Network, network_id, &network_handle).ok());
    HcnReply reply = create(HcnObject::Endpoint, settings, id, network_handle);
    emulator.close(HcnObject::Network, network_handle);
    return reply;
  }

  json enumerate(HcnObject kind, const json& filter = json::object()) {
    json query = {{"SchemaVersion", {{"Major", 2}, {"Minor", 0}}}};
    if (!filter.empty()) query["Filter"] = filter.dump();
    HcnReply reply = emulator.enumerate(kind, query.dump());
    REQUIRE(reply.ok());
    return json::parse(reply.output);
  }

  // HNSCall; the parsed envelope (null when the call itself failed).
  json call(const std::string& method, const std::string& path, const std::string& body = "", HResult* hr = nullptr) {
    auto reply = emulator.hns_call(method, path, body);
    if (hr) *hr = reply.hr;
    return reply.response.empty() ? json(nullptr) : json::parse(reply.response);
  }
};

// The ErrorCode of an error record.
inline HResult record_code(const HcnReply& reply) {
  return json::parse(reply.error_record)["ErrorCode"].get<HResult>();
}

}  // namespace hns_test
