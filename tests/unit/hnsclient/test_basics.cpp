// HRESULT texts, GUIDs, MAC addresses and the HNS feature table.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "wincni/hns/features.hpp"
#include "wincni/hns/guid.hpp"
#include "wincni/hns/hresult.hpp"
#include "wincni/hns/mac_address.hpp"

using namespace wincni::hns;

TEST_CASE("error records carry HNS's text with its trailing blank and the code in decimal") {
  auto record = nlohmann::json::parse(error_record(hr::kElementNotFound));
  CHECK(record["Success"] == false);
  CHECK(record["Error"] == "Element not found. ");
  CHECK(record["ErrorCode"] == 2147943568u);
  CHECK(error_record(hr::kEndpointAlreadyAttached).find("This endpoint is already attached to the switch. ") !=
        std::string::npos);
  CHECK(error_record(hr::kNetworkNotFound).rfind("{\"Success\":false,", 0) == 0);
}

TEST_CASE("HRESULT names, messages and hex") {
  CHECK(hresult_name(hr::kInvalidPolicyType) == "HCN_E_INVALID_POLICY_TYPE");
  CHECK(hresult_message(hr::kNetworkAlreadyExists) == "A network with this name already exists.");
  CHECK(hresult_hex(hr::kPortAlreadyExists) == "0x803B0013");
  CHECK(hresult_name(0x80001234u).empty());
  CHECK(hresult_message(0x80001234u) == "Unknown error 0x80001234.");
  CHECK(failed(hr::kFail));
  CHECK_FALSE(failed(hr::kOk));
  CHECK(hresult_from_win32(1168) == hr::kElementNotFound);
}

TEST_CASE("GUIDs print upper-case without braces and parse in any case") {
  auto guid = Guid::parse("{3f2504e0-4f89-11d3-9a0c-0305e82c3301}");
  REQUIRE(guid);
  CHECK(guid->str() == "3F2504E0-4F89-11D3-9A0C-0305E82C3301");
  CHECK(guid->data1 == 0x3F2504E0u);
  CHECK(guid->data4[7] == 0x01);
  CHECK(Guid::parse(guid->str()) == guid);
  CHECK(Guid::parse("0000000a-000b-00c0-0d0e-f00000000001")->str() == "0000000A-000B-00C0-0D0E-F00000000001");
  CHECK_FALSE(Guid::parse("3F2504E0-4F89-11D3-9A0C-0305E82C330"));
  CHECK_FALSE(Guid::parse("3F2504E0x4F89-11D3-9A0C-0305E82C3301"));
  CHECK_FALSE(Guid::parse("3F2504E0-4F89-11D3-9A0C-0305E82C330G"));
  CHECK(Guid::parse(kNullGuidText)->is_null());
  CHECK(same_guid("3f2504e0-4f89-11d3-9a0c-0305e82c3301", "3F2504E0-4F89-11D3-9A0C-0305E82C3301"));
  CHECK_FALSE(same_guid("cbr0", "cbr0"));
}

TEST_CASE("generated GUIDs are version 4 and differ") {
  Guid a = Guid::generate();
  Guid b = Guid::generate();
  CHECK(a != b);
  CHECK_FALSE(a.is_null());
  CHECK((a.data3 >> 12) == 4);
  CHECK((a.data4[0] & 0xC0) == 0x80);
}

TEST_CASE("MAC addresses: HNS form out, dashes or colons in") {
  auto mac = MacAddress::parse("0e-2a-0a-f4-01-05");
  REQUIRE(mac);
  CHECK(mac->str() == "0E-2A-0A-F4-01-05");
  CHECK(MacAddress::parse("0E:2A:0A:F4:01:05") == mac);
  CHECK(MacAddress::from_value(mac->value()) == *mac);
  CHECK_FALSE(MacAddress::parse("0E-2A-0A-F4-01"));
  CHECK_FALSE(MacAddress::parse("0E-2A:0A-F4-01-05"));
  CHECK_FALSE(MacAddress::parse("0E-2A-0A-F4-01-0Z"));
}

TEST_CASE("feature table follows hcsshim's version ranges") {
  CHECK(supports({15, 4}, Feature::Accelnet));
  CHECK_FALSE(supports({15, 3}, Feature::Accelnet));
  CHECK(supports({9, 3}, Feature::Dsr));
  CHECK(supports({9, 99}, Feature::Dsr));
  CHECK_FALSE(supports({10, 1}, Feature::Dsr));
  CHECK(supports({10, 2}, Feature::Dsr));
  CHECK_FALSE(supports({10, 2}, Feature::VxlanPort));
  CHECK(supports({10, 3}, Feature::VxlanPort));
  CHECK(supports({11, 10}, Feature::Ipv6DualStack));
  CHECK_FALSE(supports({11, 9}, Feature::Ipv6DualStack));
  CHECK(supports({12, 1}, Feature::L4Proxy));
  CHECK_FALSE(supports({13, 0}, Feature::L4Proxy));
  CHECK(supports({13, 1}, Feature::L4Proxy));
  CHECK_FALSE(supports({9, 1}, Feature::ApiV2));
  CHECK(supports({1, 0}, Feature::ApiV1));
  CHECK(features_of({15, 4}).size() == all_features().size());
  CHECK(feature_name(Feature::Ipv6DualStack) == "IPv6DualStack");
}

TEST_CASE("HNS versions parse as MAJOR.MINOR") {
  CHECK(HnsVersion::parse("13.2") == HnsVersion{13, 2});
  CHECK(HnsVersion::parse("13.2")->str() == "13.2");
  CHECK_FALSE(HnsVersion::parse("13"));
  CHECK_FALSE(HnsVersion::parse("13.x"));
  CHECK_FALSE(HnsVersion::parse("-1.2"));
  // HNS's parts are 16-bit: the emulator could not store 99999 and failed
  // every call with an internal error instead of naming the setting.
  CHECK(HnsVersion::parse("65535.65535") == HnsVersion{65535, 65535});
  CHECK_FALSE(HnsVersion::parse("99999.1"));
  CHECK_FALSE(HnsVersion::parse("1.65536"));
  CHECK(HnsVersion{10, 3} < HnsVersion{11, 0});
}
