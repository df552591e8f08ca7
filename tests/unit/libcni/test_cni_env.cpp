#include <doctest/doctest.h>

#include <map>
#include <string>

#include "cni_test_helpers.hpp"
#include "wincni/cni/cni_env.hpp"
#include "wincni/cni/error.hpp"

using namespace wincni::cni;
using wincni::test::complete_cni_env;
using wincni::test::thrown_error;

namespace {

Environment command_only(const std::string& command) {
  Environment env;
  env.set("CNI_COMMAND", command);
  return env;
}

Error error_from(const Environment& env) {
  return thrown_error([&] { read_cni_invocation(env); });
}

}  // namespace

TEST_CASE("a complete environment is read as is") {
  const CniInvocation inv = read_cni_invocation(complete_cni_env("ADD"));
  CHECK(inv.command == "ADD");
  CHECK(inv.container_id == "c1");
  CHECK(inv.netns == "ns1");
  CHECK(inv.ifname == "eth0");
  CHECK(inv.args == "K8S_POD_NAME=web");
  CHECK(inv.path == "/opt/cni/bin");
}

TEST_CASE("each command requires its own variables (Go skel at HEAD)") {
  const std::map<std::string, std::string> expected_missing{
      {"ADD", "CNI_CONTAINERID,CNI_NETNS,CNI_IFNAME,CNI_PATH"},
      {"CHECK", "CNI_CONTAINERID,CNI_NETNS,CNI_IFNAME,CNI_PATH"},
      {"DEL", "CNI_CONTAINERID,CNI_IFNAME,CNI_PATH"},
      {"GC", "CNI_PATH"},
      {"STATUS", "CNI_PATH"},
  };
  for (const auto& row : expected_missing) {
    // Named copies, not structured bindings: clang 14 cannot capture those.
    const auto& command = std::get<0>(row);
    const auto& missing = std::get<1>(row);
    CAPTURE(command);
    const Error e = error_from(command_only(command));
    CHECK(e.code() == kInvalidEnvironment);
    CHECK(e.msg() == "required env variables [" + missing + "] missing");
  }
  CHECK_NOTHROW(read_cni_invocation(command_only("VERSION")));
  // An unknown command requires nothing here: the skel reports it later.
  CHECK_NOTHROW(read_cni_invocation(command_only("NOPE")));
}

TEST_CASE("an empty variable counts as missing; CNI_ARGS is never required") {
  Environment env = complete_cni_env("ADD");
  env.set("CNI_NETNS", "");
  env.set("CNI_PATH", "");
  env.unset("CNI_ARGS");
  const Error e = error_from(env);
  CHECK(e.code() == kInvalidEnvironment);
  CHECK(e.msg() == "required env variables [CNI_NETNS,CNI_PATH] missing");

  CHECK(error_from(command_only("")).msg() == "required env variables [CNI_COMMAND] missing");
}

TEST_CASE("DEL does not need CNI_NETNS; GC and STATUS ignore container and interface") {
  Environment del = complete_cni_env("DEL");
  del.unset("CNI_NETNS");
  CHECK_NOTHROW(read_cni_invocation(del));

  // libcni sends GC and STATUS with empty CONTAINERID, NETNS, IFNAME.
  for (const char* command : {"GC", "STATUS"}) {
    Environment env({{"CNI_COMMAND", command},
                     {"CNI_CONTAINERID", ""},
                     {"CNI_NETNS", ""},
                     {"CNI_IFNAME", ""},
                     {"CNI_ARGS", ""},
                     {"CNI_PATH", "/opt/cni/bin"}});
    CHECK_NOTHROW(read_cni_invocation(env));
    env.set("CNI_CONTAINERID", "not valid %%");  // not required, so not validated
    CHECK_NOTHROW(read_cni_invocation(env));
  }
}

TEST_CASE("a bad container ID is reported as soon as it is reached") {
  Environment env = complete_cni_env("ADD");
  env.set("CNI_CONTAINERID", "some-%%container-id");
  env.unset("CNI_PATH");  // CONTAINERID comes first in the table
  const Error e = error_from(env);
  CHECK(e.code() == kInvalidEnvironment);
  CHECK(e.msg() == "invalid characters in containerID");
  CHECK(e.details() == "some-%%container-id");
}

TEST_CASE("container IDs follow the CNI name pattern") {
  for (const char* good : {"a", "0", "abc-123_x.y", "A.b-C_d"}) {
    CAPTURE(good);
    CHECK_NOTHROW(validate_container_id(good));
  }
  for (const char* bad : {"-a", "_a", ".a", "a b", "a/b", "a:b", "a%", "é"}) {
    CAPTURE(bad);
    const Error e = thrown_error([&] { validate_container_id(bad); });
    CHECK(e.code() == kInvalidEnvironment);
    CHECK(e.details() == bad);
  }
  const Error empty = thrown_error([] { validate_container_id(""); });
  CHECK(empty.code() == kUnknownContainer);
  CHECK(empty.msg() == "missing containerID");
}

TEST_CASE("interface names follow Linux's rules with Go's messages") {
  for (const char* good : {"eth0", "e", "123456789012345", "vEthernet(a)", "é"}) {
    CAPTURE(good);
    CHECK_NOTHROW(validate_interface_name(good));
  }
  const std::map<std::string, std::string> bad{
      {"", "interface name is empty"},
      {"1234567890123456", "interface name is too long"},
      {".", "interface name is . or .."},
      {"..", "interface name is . or .."},
      {"a/b", "interface name contains / or : or whitespace characters"},
      {"a:b", "interface name contains / or : or whitespace characters"},
      {"a b", "interface name contains / or : or whitespace characters"},
      {"a\tb", "interface name contains / or : or whitespace characters"},
      {"a\xc2\xa0"
       "b",
       "interface name contains / or : or whitespace characters"},                   // U+00A0
      {"a\xe3\x80\x80", "interface name contains / or : or whitespace characters"},  // U+3000
  };
  for (const auto& row : bad) {
    // Named copies, not structured bindings: clang 14 cannot capture those.
    const auto& name = std::get<0>(row);
    const auto& message = std::get<1>(row);
    CAPTURE(name);
    const Error e = thrown_error([&] { validate_interface_name(name); });
    CHECK(e.code() == kInvalidEnvironment);
    CHECK(e.msg() == message);
  }
  // 15 bytes is the limit in bytes, not characters: 8 two-byte characters are 16.
  CHECK_THROWS_AS(validate_interface_name("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"), Error);
  // Invalid UTF-8 is not whitespace (Go decodes it as U+FFFD).
  CHECK_NOTHROW(validate_interface_name("a\xff"));
}

TEST_CASE("interface name problems are found through the environment too") {
  Environment env = complete_cni_env("CHECK");
  env.set("CNI_IFNAME", "too-long-interface-name");
  const Error e = error_from(env);
  CHECK(e.msg() == "interface name is too long");
  CHECK(e.details() == "interface name should be less than 16 characters");
}
