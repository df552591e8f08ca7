// subnet.env as flanneld writes it, and as it must never crash us.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#ifndef _WIN32
#include <sys/stat.h>
#endif

#include "addresses.hpp"
#include "fixture_configs.hpp"
#include "scratch_dir.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/flannel/subnet_env.hpp"

using namespace wincni;
using flannel::parse_subnet_env;
using flannel::SubnetEnv;
using test::prefix;

namespace {

SubnetEnv fixture(const char* name) { return parse_subnet_env(test::subnet_env_fixture(name), name); }

// The error a text gets: code and message.
std::pair<int, std::string> failure(std::string_view text) {
  try {
    parse_subnet_env(text, "/run/flannel/subnet.env");
  } catch (const cni::Error& e) {
    return {e.code(), e.msg()};
  }
  return {0, ""};
}

}  // namespace

TEST_CASE("the IPv4 host-gw fixture: networks and subnets masked, MTU and ipMasq") {
  const SubnetEnv env = fixture("host-gw-v4.env");
  CHECK(env.networks == std::vector{prefix("10.244.0.0/16")});
  CHECK(env.subnet == prefix("10.244.4.0/24"));  // written 10.244.4.1/24
  CHECK(env.ipv6_networks.empty());
  CHECK_FALSE(env.ipv6_subnet);
  CHECK(env.mtu == 1500);
  CHECK(env.ip_masq);
}

TEST_CASE("dual stack, IPv6 only and two cluster networks (the reference's vectors)") {
  const SubnetEnv dual = fixture("dual-stack.env");
  CHECK(dual.ipv6_networks == std::vector{prefix("fd00:10:244::/56")});
  CHECK(dual.ipv6_subnet == prefix("fd00:10:244:4::/64"));
  CHECK(dual.subnet == prefix("10.244.4.0/24"));

  const SubnetEnv v6 = fixture("ipv6-only.env");
  CHECK(v6.networks.empty());
  CHECK_FALSE(v6.subnet);
  CHECK(v6.ipv6_subnet == prefix("fd00:10:244:4::/64"));
  CHECK_FALSE(v6.ip_masq);

  const SubnetEnv two = fixture("two-networks.env");
  CHECK(two.networks == std::vector{prefix("10.1.0.0/16"), prefix("192.168.0.0/16")});
  CHECK(two.mtu == 1472);
}

TEST_CASE("CRLF line ends, as a file edited on Windows has them") {
  std::string crlf;
  for (char c : std::string(test::subnet_env_fixture("vxlan-v4-crlf.env"))) {
    if (c == '\r') continue;
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  REQUIRE(crlf.find("\r\n") != std::string::npos);
  const SubnetEnv env = parse_subnet_env(crlf, "subnet.env");
  CHECK(env.subnet == prefix("10.244.4.0/24"));
  CHECK(env.mtu == 1450);
  CHECK(env.ip_masq);  // "true\r" would not be true
}

TEST_CASE("a file written by hand on Windows: a UTF-8 byte-order mark is skipped, UTF-16 is named") {
  const std::string text(test::subnet_env_fixture("host-gw-v4.env"));
  const SubnetEnv env = parse_subnet_env("\xEF\xBB\xBF" + text, "subnet.env");
  CHECK(env.networks == std::vector{prefix("10.244.0.0/16")});

  // Windows PowerShell 5.1's `>`: UTF-16LE with its mark.
  std::string utf16 = "\xFF\xFE";
  for (char c : text) utf16 += std::string{c, '\0'};
  const auto [code, msg] = failure(utf16);
  CHECK(code == 7);
  CHECK(msg.find("is UTF-16 text") != std::string::npos);
  CHECK(msg.find("Set-Content -Encoding ascii") != std::string::npos);
}

TEST_CASE("the reference's listing of what is missing") {
  const auto [code, msg] = failure(test::subnet_env_fixture("malformed.env"));
  CHECK(code == 7);
  CHECK(msg ==
        "/run/flannel/subnet.env is missing FLANNEL_NETWORK, FLANNEL_IPV6_NETWORK, FLANNEL_SUBNET, "
        "FLANNEL_IPV6_SUBNET, FLANNEL_MTU, FLANNEL_IPMASQ");
  CHECK(failure("").second.find("is missing FLANNEL_NETWORK") != std::string::npos);
  CHECK(failure("FLANNEL_NETWORK=10.0.0.0/8\nFLANNEL_SUBNET=10.1.0.1/24\nFLANNEL_MTU=1500\n").second ==
        "/run/flannel/subnet.env is missing FLANNEL_IPMASQ");
}

TEST_CASE("lists: deduplicated, order kept, a repeated line replaces; exact keys; ipMasq only for \"true\"") {
  const SubnetEnv env = parse_subnet_env(
      "# flanneld\nFLANNEL_NETWORK=1.0.0.0/8\nFLANNEL_NETWORK=10.0.0.0/8,10.0.0.0/08,10.9.9.9/8,172.16.0.0/12\n"
      "flannel_mtu=9\nFLANNEL_SUBNET=10.3.0.7/16\nFLANNEL_MTU=1400\nFLANNEL_IPMASQ=True\nOTHER=x\n",
      "f");
  CHECK(env.networks == std::vector{prefix("10.0.0.0/8"), prefix("172.16.0.0/12")});
  CHECK(env.subnet == prefix("10.3.0.0/16"));
  CHECK(env.mtu == 1400);
  CHECK_FALSE(env.ip_masq);
}

TEST_CASE("content that panics the reference or makes no sense is a code-7 error naming the line") {
  const std::string base =
      "FLANNEL_NETWORK=10.0.0.0/8\nFLANNEL_SUBNET=10.1.0.1/24\nFLANNEL_MTU=1500\nFLANNEL_IPMASQ=true\n";
  CHECK(failure(base + "FLANNEL_MTU\n") ==
        std::pair<int, std::string>{7, "/run/flannel/subnet.env line 5: FLANNEL_MTU has no value"});
  CHECK(failure(base + "FLANNEL_MTU=-1\n").first == 7);
  CHECK(failure(base + "FLANNEL_MTU=99999999999\n").first == 7);
  CHECK(failure(base + "FLANNEL_SUBNET=fd00::1/64\n").second.find("not an IPv4 prefix") != std::string::npos);
  CHECK(failure(base + "FLANNEL_IPV6_SUBNET=10.0.0.0/8\n").first == 7);
  CHECK(failure(base + "FLANNEL_NETWORK=10.0.0.0/8, 11.0.0.0/8\n").second.find("invalid CIDR address:  11.0.0.0/8") !=
        std::string::npos);
  CHECK(failure(base + "FLANNEL_NETWORK=\n").first == 7);
  CHECK(failure(std::string("\0\xff\xfe=\n\n\n", 6) + base).first == 0);
  CHECK(failure(std::string(10 * 1024 * 1024, 'x')).second.find("bytes: that is not flanneld's subnet.env") !=
        std::string::npos);
}

// security review, finding 8: a 100 MB subnet.env cost 133 MB before it was
// refused.
TEST_CASE("a subnet.env over 64 KiB is refused before it is read") {
  test::ScratchDir dir;
  const std::string big = (dir.path() / "subnet.env").string();
  std::ofstream(big, std::ios::binary) << std::string(1024 * 1024, 'x');
  try {
    flannel::read_subnet_env(big);
    FAIL("a 1 MiB subnet.env was read");
  } catch (const cni::Error& e) {
    CHECK(e.code() == cni::kInvalidNetworkConfig);
    CHECK(e.msg() == big + " is over 65536 bytes: that is not flanneld's subnet.env, which is a few lines");
  }
}

TEST_CASE("reading the file: absent is nullopt, a directory is an I/O error, a FIFO does not block") {
  test::ScratchDir dir;
  const std::string missing = (dir.path() / "subnet.env").string();
  CHECK_FALSE(flannel::read_subnet_env(missing));

  const std::string folder = (dir.path() / "folder").string();
  std::filesystem::create_directories(folder);
  auto code_of = [](const std::string& path) {
    try {
      flannel::read_subnet_env(path);
    } catch (const cni::Error& e) {
      return e.code();
    }
    return 0;
  };
  CHECK(code_of(folder) == cni::kIoFailure);
#ifndef _WIN32
  const std::string fifo = (dir.path() / "fifo").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(code_of(fifo) == cni::kIoFailure);
#endif
}

TEST_CASE("waiting: a file that appears while ADD waits is read; one that never does is code 11 saying what to check") {
  test::ScratchDir dir;
  const std::string path = (dir.path() / "subnet.env").string();
  try {
    flannel::wait_for_subnet_env(path, std::chrono::milliseconds(120));
    FAIL("no error");
  } catch (const cni::Error& e) {
    CHECK(e.code() == cni::kTryAgainLater);
    CHECK(e.msg().find("flanneld runs on this node") != std::string::npos);
    CHECK(e.msg().find("C:\\run\\flannel\\subnet.env") != std::string::npos);
    CHECK(e.msg().find("waited 120 ms") != std::string::npos);
  }
  std::ofstream(path) << test::subnet_env_fixture("host-gw-v4.env");
  CHECK(flannel::wait_for_subnet_env(path, std::chrono::milliseconds(0)).mtu == 1500);
}
