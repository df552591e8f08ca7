#include <doctest/doctest.h>

#include <string>

#include "cni_test_helpers.hpp"
#include "wincni/cni/cni_args.hpp"
#include "wincni/cni/error.hpp"

using namespace wincni::cni;
using wincni::test::thrown_error;

namespace {

Error args_error(std::string_view text, const std::vector<std::string_view>& known = standard_cni_arg_keys()) {
  return thrown_error([&] { CniArgs::parse(text, known); });
}

}  // namespace

TEST_CASE("containerd's CNI_ARGS give typed pod identity") {
  const CniArgs args = CniArgs::parse(
      "IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=web-0;"
      "K8S_POD_INFRA_CONTAINER_ID=0123abcd;K8S_POD_UID=6f1c-11ee");
  CHECK(args.ignore_unknown());
  CHECK(args.pod_namespace() == "default");
  CHECK(args.pod_name() == "web-0");
  CHECK(args.pod_infra_container_id() == "0123abcd");
  CHECK(args.pod_uid() == "6f1c-11ee");
  CHECK_FALSE(args.ip().has_value());
  CHECK(args.pairs().size() == 5);
}

TEST_CASE("an empty CNI_ARGS has no pairs") {
  const CniArgs args = CniArgs::parse("");
  CHECK(args.pairs().empty());
  CHECK_FALSE(args.ignore_unknown());
  CHECK_FALSE(args.pod_name().has_value());
}

TEST_CASE("IP is parsed as an address") {
  CHECK(CniArgs::parse("IP=10.0.0.7").ip()->str() == "10.0.0.7");
  CHECK(CniArgs::parse("IP=fd00::7").ip()->str() == "fd00::7");
  const CniArgs bad = CniArgs::parse("IP=10.0.0.300");
  const Error e = thrown_error([&] { bad.ip(); });
  CHECK(e.code() == kInvalidEnvironment);
  CHECK(e.msg().find("CNI_ARGS") != std::string::npos);
}

TEST_CASE("unknown keys are refused unless IgnoreUnknown is true") {
  const Error e = args_error("K8S_POD_NAME=a;FOO=1;BAR=2");
  CHECK(e.code() == kInvalidEnvironment);
  CHECK(e.msg() == R"(CNI_ARGS: unknown args ["FOO=1" "BAR=2"])");

  for (const char* yes : {"1", "true", "True", "TRUE"}) {
    CAPTURE(yes);
    const CniArgs args = CniArgs::parse(std::string("FOO=1;IgnoreUnknown=") + yes);  // order does not matter
    CHECK(args.ignore_unknown());
    CHECK(args.get("FOO") == "1");  // still readable
  }
  CHECK(args_error("FOO=1;IgnoreUnknown=0").msg().find("unknown args") != std::string::npos);
  CHECK(args_error("FOO=1;IgnoreUnknown=false").msg().find("unknown args") != std::string::npos);

  const Error bad_bool = args_error("IgnoreUnknown=yes");
  CHECK(bad_bool.code() == kInvalidEnvironment);
  CHECK(bad_bool.msg() ==
        R"(CNI_ARGS: error parsing value of pair "IgnoreUnknown=yes": boolean unmarshal error: invalid input yes)");
}

TEST_CASE("a plugin declares the keys it understands") {
  const CniArgs args = CniArgs::parse("MAC=00-15-5D-00-00-01", {"MAC"});
  CHECK(args.get("MAC") == "00-15-5D-00-00-01");
  CHECK(args_error("IP=10.0.0.1", {"MAC"}).msg() == R"(CNI_ARGS: unknown args ["IP=10.0.0.1"])");
  // Keys are case-sensitive, like Go's struct field names.
  CHECK(args_error("k8s_pod_name=x").msg().find("unknown args") != std::string::npos);
}

TEST_CASE("a pair needs exactly one '=' and a key") {
  for (const char* text :
       {"K8S_POD_NAME", "K8S_POD_NAME=a=b", "=value", "K8S_POD_NAME=a;", ";K8S_POD_NAME=a", "a;;b"}) {
    CAPTURE(text);
    const Error e = args_error(text);
    CHECK(e.code() == kInvalidEnvironment);
    CHECK(e.msg().rfind("CNI_ARGS: invalid pair ", 0) == 0);
  }
  CHECK(args_error("K8S_POD_NAME=a=b").msg() == R"(CNI_ARGS: invalid pair "K8S_POD_NAME=a=b")");
  // An empty value is allowed, as in Go.
  CHECK(CniArgs::parse("K8S_POD_UID=").pod_uid() == "");
}

TEST_CASE("a repeated key keeps the last value") {
  CHECK(CniArgs::parse("K8S_POD_NAME=a;K8S_POD_NAME=b").pod_name() == "b");
}
