// ipam.resolvConf, read as the reference reads it.

#include <doctest/doctest.h>

#include "resolv_conf.hpp"
#include "support.hpp"
#include "wincni/cni/error.hpp"

using wincni::hostlocal::parse_resolv_conf;

TEST_CASE("nameserver, domain, search and options lines; comments and short lines skipped") {
  const auto dns = parse_resolv_conf(
      "# generated\n"
      "; also a comment\n"
      "nameserver 192.0.2.3\r\n"
      "  nameserver   2001:db8::53  \n"
      "nameserver\n"
      "domain example.com\n"
      "domain example.org\n"
      "search a.example b.example\n"
      "search c.example\n"
      "options ndots:5 timeout:1\n"
      "sortlist 10.0.0.0\n"
      "\n");
  CHECK(dns.nameservers == std::vector<std::string>{"192.0.2.3", "2001:db8::53"});
  CHECK(dns.domain == "example.org");
  CHECK(dns.search == std::vector<std::string>{"a.example", "b.example", "c.example"});
  CHECK(dns.options == std::vector<std::string>{"ndots:5", "timeout:1"});
  CHECK(parse_resolv_conf("").empty());
  CHECK(parse_resolv_conf("nameserver 1.1.1.1").nameservers == std::vector<std::string>{"1.1.1.1"});
}

TEST_CASE("an unreadable resolv.conf is an I/O error") {
  hostlocal_test::TempDir dir;
  const auto e = hostlocal_test::thrown_error(
      [&] { wincni::hostlocal::read_resolv_conf(hostlocal_test::path_text(dir.path()) + "/missing.conf"); });
  CHECK(e.code() == wincni::cni::kIoFailure);
  CHECK(std::string(e.msg()).find("missing.conf") != std::string::npos);
  hostlocal_test::write_text(dir.path() / "r.conf", "nameserver 192.0.2.3");
  CHECK(wincni::hostlocal::read_resolv_conf(hostlocal_test::path_text(dir.path()) + "/r.conf").nameservers.size() == 1);
}
