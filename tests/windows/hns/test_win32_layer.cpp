// The win32 layer against the emulator DLLs, under Wine: the real
// LoadLibraryExW / GetProcAddress / UTF-16 / CoTaskMem path, end to end
// through computenetwork.dll and vmcompute.dll in the prefix's system32.
// Run by run_in_prefix.py, which installs the DLLs there first.

#include <windows.h>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <string>

#include "system_library.hpp"
#include "win32_hcn_api.hpp"
#include "wincni/hns/guid.hpp"
#include "wincni/hns/hresult.hpp"
#include "wincni/hns/win32/hcs_calls.hpp"

namespace {

using namespace wincni::hns;
using nlohmann::json;

std::string network_settings(const std::string& name, const std::string& subnet, const std::string& gateway) {
  json settings = {
      {"SchemaVersion", {{"Major", 2}, {"Minor", 0}}},
      {"Name", name},
      {"Type", "L2Bridge"},
      {"Ipams",
       {{{"Type", "Static"},
         {"Subnets",
          {{{"IpAddressPrefix", subnet}, {"Routes", {{{"NextHop", gateway}, {"DestinationPrefix", "0.0.0.0/0"}}}}}}}}}},
  };
  return settings.dump();
}

std::string name_filter(const std::string& name) {
  json query = {{"SchemaVersion", {{"Major", 2}, {"Minor", 0}}}, {"Filter", json{{"Name", name}}.dump()}};
  return query.dump();
}

// Closes through the seam, as every user of it must.
struct OpenHandle {
  HcnApi& api;
  HcnObject kind;
  HcnHandle handle = nullptr;
  ~OpenHandle() { api.close(kind, handle); }
};

HcnApi& api() {
  static std::unique_ptr<HcnApi> instance = win32::make_win32_hcn_api();
  return *instance;
}

// Creates a network and returns its ID, checking the reply on the way.
std::string create_network(const std::string& name, const std::string& subnet, const std::string& gateway) {
  OpenHandle network{api(), HcnObject::Network};
  HcnReply created =
      api().create(HcnObject::Network, nullptr, Guid{}, network_settings(name, subnet, gateway), &network.handle);
  INFO(created.error_record);
  REQUIRE(created.ok());
  REQUIRE(network.handle != nullptr);
  HcnReply properties = api().query_properties(HcnObject::Network, network.handle, "");
  REQUIRE(properties.ok());
  json object = json::parse(properties.output);
  CHECK(object["Name"] == name);
  return object["ID"].get<std::string>();
}

}  // namespace

TEST_CASE("a network created through the DLL is found by a Name filter, and only it") {
  std::string id = create_network("win32-filter", "10.250.1.0/24", "10.250.1.1");
  create_network("win32-filter-other", "10.250.2.0/24", "10.250.2.1");

  HcnReply found = api().enumerate(HcnObject::Network, name_filter("win32-filter"));
  REQUIRE(found.ok());
  CHECK(json::parse(found.output) == json::array({id}));

  HcnReply none = api().enumerate(HcnObject::Network, name_filter("win32-no-such-network"));
  REQUIRE(none.ok());
  CHECK(none.output == "[]");

  // Output IDs are HNS's: upper-case, no braces.
  auto parsed = Guid::parse(id);
  REQUIRE(parsed);
  CHECK(parsed->str() == id);
}

TEST_CASE("a duplicate network name fails with HNS's HRESULT and error record") {
  create_network("win32-duplicate", "10.250.3.0/24", "10.250.3.1");
  HcnHandle handle = nullptr;
  HcnReply again = api().create(HcnObject::Network, nullptr, Guid{},
                                network_settings("win32-duplicate", "10.250.4.0/24", "10.250.4.1"), &handle);
  CHECK(again.hr == hr::kNetworkAlreadyExists);
  CHECK(handle == nullptr);
  CHECK(again.output.empty());
  json record = json::parse(again.error_record);
  CHECK(record["Success"] == false);
  CHECK(record["ErrorCode"] == hr::kNetworkAlreadyExists);  // 2151350288
  CHECK(record["Error"].get<std::string>().back() == ' ');
}

TEST_CASE("opening, querying and deleting a missing object fail cleanly") {
  Guid missing = *Guid::parse("0badc0de-0000-4000-8000-000000000001");
  HcnHandle handle = nullptr;
  HcnReply opened = api().open(HcnObject::Network, missing, &handle);
  CHECK(opened.hr == hr::kNetworkNotFound);
  CHECK(handle == nullptr);
  CHECK(json::parse(opened.error_record)["ErrorCode"] == hr::kNetworkNotFound);

  HcnReply removed = api().remove(HcnObject::Endpoint, missing);
  CHECK(removed.hr == hr::kEndpointNotFound);

  HcnReply ns = api().open(HcnObject::Namespace, missing, &handle);
  CHECK(ns.hr == hr::kElementNotFound);
}

TEST_CASE("an endpoint gets the next free address; its network ID and IP come back") {
  std::string network_id = create_network("win32-endpoints", "10.250.5.0/24", "10.250.5.1");
  OpenHandle network{api(), HcnObject::Network};
  REQUIRE(api().open(HcnObject::Network, *Guid::parse(network_id), &network.handle).ok());

  json settings = {{"SchemaVersion", {{"Major", 2}, {"Minor", 0}}},
                   {"Name", "win32-endpoints_ep"},
                   {"HostComputeNetwork", network_id}};
  OpenHandle endpoint{api(), HcnObject::Endpoint};
  HcnReply created = api().create(HcnObject::Endpoint, network.handle, Guid{}, settings.dump(), &endpoint.handle);
  INFO(created.error_record);
  REQUIRE(created.ok());
  HcnReply properties = api().query_properties(HcnObject::Endpoint, endpoint.handle, "");
  REQUIRE(properties.ok());
  json object = json::parse(properties.output);
  CHECK(same_guid(object["HostComputeNetwork"].get<std::string>(), network_id));
  CHECK(object["IpConfigurations"][0]["IpAddress"] == "10.250.5.2");
}

TEST_CASE("text outside ASCII survives UTF-8 -> UTF-16 -> emulator -> UTF-16 -> UTF-8") {
  const std::string name = "win32-r\xC3\xA9seau-\xE2\x82\xAC";  // "win32-réseau-€"
  create_network(name, "10.250.6.0/24", "10.250.6.1");
  HcnReply found = api().enumerate(HcnObject::Network, name_filter(name));
  REQUIRE(found.ok());
  CHECK(json::parse(found.output).size() == 1);
}

TEST_CASE("input that is not UTF-8 is refused before it reaches HNS") {
  HcnReply reply = api().enumerate(HcnObject::Network, "{\"Filter\":\"\xFF\xFE\"}");
  CHECK(reply.hr == hr::kInvalidArg);
  CHECK(json::parse(reply.error_record)["Error"].get<std::string>().find("UTF-8") != std::string::npos);
}

TEST_CASE("a handle is of one kind only") {
  create_network("win32-handle-kind", "10.250.7.0/24", "10.250.7.1");
  HcnReply found = api().enumerate(HcnObject::Network, name_filter("win32-handle-kind"));
  REQUIRE(found.ok());
  OpenHandle network{api(), HcnObject::Network};
  REQUIRE(api()
              .open(HcnObject::Network, *Guid::parse(json::parse(found.output)[0].get<std::string>()), &network.handle)
              .ok());
  HcnReply wrong = api().query_properties(HcnObject::Endpoint, network.handle, "");
  CHECK(wrong.hr == hr::kInvalidHandle);
}

TEST_CASE("HNSCall through vmcompute.dll: the version and the v1 view of v2 objects") {
  HnsCallReply version = api().hns_call("GET", "/globals/version", "");
  REQUIRE(succeeded(version.hr));
  json envelope = json::parse(version.response);
  CHECK(envelope["Success"] == true);
  CHECK(envelope["Output"]["Major"].is_number());

  std::string id = create_network("win32-v1-view", "10.250.8.0/24", "10.250.8.1");
  HnsCallReply network = api().hns_call("GET", "/networks/" + id, "");
  REQUIRE(succeeded(network.hr));
  json v1 = json::parse(network.response);
  CHECK(v1["Success"] == true);
  CHECK(v1["Output"]["Name"] == "win32-v1-view");
  CHECK(v1["Output"]["Subnets"][0]["AddressPrefix"] == "10.250.8.0/24");
}

TEST_CASE("HCS through vmcompute.dll: a compute system's life, HCS's result document, callbacks") {
  HcsHandle system = reinterpret_cast<HcsHandle>(1);
  HcnReply missing = api().hcs_open("win32-no-such-container", &system);
  CHECK(missing.hr == hr::kSystemNotFound);
  CHECK(system == nullptr);
  CHECK(json::parse(missing.error_record)["Error"].get<std::int32_t>() ==
        static_cast<std::int32_t>(hr::kSystemNotFound));

  REQUIRE(api().hcs_create("win32-container", R"({"SystemType":"Container"})", &system).ok());
  HcnReply properties = api().hcs_properties(system, "");
  REQUIRE(properties.ok());
  CHECK(json::parse(properties.output)["Id"] == "win32-container");
  HcnReply refused = api().hcs_modify(system, R"({"ResourceType":"Network","RequestType":"Add","Settings":"x"})");
  CHECK(refused.hr == hr::kHcsInvalidJson);

  // hcsshim registers a callback on every system it opens.
  win32::SystemLibrary vmcompute("vmcompute.dll");
  auto register_callback =
      vmcompute.function<decltype(&HcsRegisterComputeSystemCallback)>("HcsRegisterComputeSystemCallback");
  auto unregister_callback =
      vmcompute.function<decltype(&HcsUnregisterComputeSystemCallback)>("HcsUnregisterComputeSystemCallback");
  WincniHcsCallback callback = nullptr;
  WincniHcsNotificationCallback notification = [](DWORD, void*, HRESULT, PCWSTR) {};
  CHECK(register_callback(system, notification, nullptr, &callback) == S_OK);
  CHECK(callback != nullptr);
  CHECK(unregister_callback(callback) == S_OK);
  CHECK(unregister_callback(callback) == E_HANDLE);

  REQUIRE(api().hcs_terminate(system).ok());
  api().hcs_close(system);
  HcsHandle gone = nullptr;
  CHECK(api().hcs_open("win32-container", &gone).hr == hr::kSystemNotFound);
  auto open = vmcompute.function<decltype(&HcsOpenComputeSystem)>("HcsOpenComputeSystem");
  CHECK(open(L"win32-container", nullptr, nullptr) == E_POINTER);
}

TEST_CASE("DLLs are taken from System32 only, and a missing one or a missing export is an error") {
  // run_in_prefix.py puts a copy of vmcompute.dll next to this program under
  // another name: the plain loader finds it, ours must not.
  wchar_t module_path[MAX_PATH];
  REQUIRE(GetModuleFileNameW(nullptr, module_path, MAX_PATH) > 0);
  std::wstring planted(module_path);
  planted = planted.substr(0, planted.find_last_of(L"\\/") + 1) + L"wincni-planted.dll";
  HMODULE plain = LoadLibraryW(planted.c_str());
  REQUIRE_MESSAGE(plain != nullptr, "run_in_prefix.py plants wincni-planted.dll next to the test");
  FreeLibrary(plain);

  win32::SystemLibrary not_in_system32("wincni-planted.dll");
  try {
    not_in_system32.function<void (*)()>("HNSCall");
    FAIL("a DLL outside System32 was loaded");
  } catch (const win32::EntryPointError& error) {
    CHECK(error.code() == 0x8007007E);  // ERROR_MOD_NOT_FOUND
    CHECK(std::string(error.what()).find("wincni-planted.dll") != std::string::npos);
  }

  win32::SystemLibrary kernel32("kernel32.dll");
  bool found = kernel32.function<void (*)()>("GetCurrentProcessId") != nullptr;
  CHECK(found);
  try {
    kernel32.function<void (*)()>("WincniNoSuchExport");
    FAIL("a missing export was found");
  } catch (const win32::EntryPointError& error) {
    CHECK(error.code() == hr::kProcNotFound);
    CHECK(std::string(error.what()).find("WincniNoSuchExport") != std::string::npos);
  }
}

TEST_CASE("every call on a missing DLL is a failed reply naming it, never a crash") {
  auto missing = win32::make_win32_hcn_api({"wincni-no-such-hcn.dll", "wincni-no-such-vmcompute.dll"});
  HcnReply listed = missing->enumerate(HcnObject::Network, "");
  CHECK(listed.hr == 0x8007007E);  // ERROR_MOD_NOT_FOUND
  CHECK(json::parse(listed.error_record)["Error"].get<std::string>().find("wincni-no-such-hcn.dll") !=
        std::string::npos);
  HcnHandle handle = reinterpret_cast<HcnHandle>(1);
  CHECK(missing->create(HcnObject::Network, nullptr, Guid{}, "{}", &handle).hr == 0x8007007E);
  CHECK(handle == nullptr);
  missing->close(HcnObject::Network, reinterpret_cast<HcnHandle>(1));  // nothing to close, no crash

  HnsCallReply version = missing->hns_call("GET", "/globals/version", "");
  CHECK(version.hr == 0x8007007E);
  json envelope = json::parse(version.response);
  CHECK(envelope["Success"] == false);
  CHECK(envelope["Error"].get<std::string>().find("wincni-no-such-vmcompute.dll") != std::string::npos);
}

TEST_CASE("a DLL without the exports gives ERROR_PROC_NOT_FOUND naming the export") {
  auto wrong = win32::make_win32_hcn_api({"kernel32.dll", "kernel32.dll"});
  HcnReply queried = wrong->query_properties(HcnObject::Endpoint, nullptr, "");
  CHECK(queried.hr == hr::kProcNotFound);
  CHECK(json::parse(queried.error_record)["Error"].get<std::string>().find("HcnQueryEndpointProperties") !=
        std::string::npos);
  CHECK(wrong->hns_call("GET", "/globals/version", "").hr == hr::kProcNotFound);
}
