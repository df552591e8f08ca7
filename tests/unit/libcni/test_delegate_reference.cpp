// Delegation to a real Go plugin: the reference host-local from Debian's
// containernetworking-plugins (scripts/setup.sh installs it), so that our
// delegate reads what Go's skel really prints, results and errors alike.
// Skipped where the reference plugins are not installed (and on Windows).
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cni_test_helpers.hpp"
#include "scratch_dir.hpp"
#include "wincni/cni/delegate.hpp"
#include "wincni/cni/error.hpp"

using nlohmann::json;
using wincni::cni::DelegateOptions;
using wincni::cni::Environment;
using wincni::test::thrown_error;

namespace {

const std::filesystem::path kReferenceDir = "/usr/lib/cni";

bool have_reference_host_local() {
#ifdef _WIN32
  return false;
#else
  std::error_code ignored;
  return std::filesystem::is_regular_file(kReferenceDir / "host-local", ignored);
#endif
}

Environment reference_env(const std::string& command) {
  Environment env = wincni::test::complete_cni_env(command);
  env.set("CNI_PATH", kReferenceDir.string());
  env.set("CNI_ARGS", "IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=web");  // as containerd sends them
  return env;
}

std::string host_local_config(const std::string& version, const std::filesystem::path& data_dir) {
  return json{{"cniVersion", version},
              {"name", "ref-net"},
              {"type", "win-bridge"},
              {"ipam",
               {{"type", "host-local"},
                {"dataDir", data_dir.string()},
                {"ranges", {{{{"subnet", "10.22.0.0/24"}, {"gateway", "10.22.0.1"}}}}},
                {"routes", {{{"dst", "0.0.0.0/0"}}}}}}}
      .dump();
}

}  // namespace

TEST_CASE("the reference host-local's result is read in every version it speaks" *
          doctest::skip(!have_reference_host_local())) {
  for (const std::string version : {"0.2.0", "0.3.1", "0.4.0", "1.0.0"}) {
    CAPTURE(version);
    wincni::test::ScratchDir data;
    const std::string config = host_local_config(version, data.path());
    wincni::os::StringSink forwarded;
    DelegateOptions options;
    options.stderr_sink = &forwarded;
    const wincni::cni::Result result =
        wincni::cni::delegate_add("host-local", config, version, reference_env("ADD"), options);
    REQUIRE(result.ips.size() == 1);
    CHECK(result.ips[0].address.str() == "10.22.0.2/24");
    REQUIRE(result.ips[0].gateway.has_value());
    CHECK(result.ips[0].gateway->str() == "10.22.0.1");
    REQUIRE(result.routes.size() == 1);
    CHECK(result.routes[0].dst.str() == "0.0.0.0/0");
    CHECK(forwarded.text.empty());
    // host-local keeps one file per reserved address; DEL, with the same
    // container ID and interface passed through, removes it.
    const std::filesystem::path reservation = data / "ref-net" / "10.22.0.2";
    CHECK(std::filesystem::exists(reservation));
    CHECK_NOTHROW(wincni::cni::delegate_del("host-local", config, reference_env("DEL"), options));
    CHECK_FALSE(std::filesystem::exists(reservation));
  }
}

TEST_CASE("the reference host-local's errors keep their code and message" *
          doctest::skip(!have_reference_host_local())) {
  wincni::test::ScratchDir data;
  const std::string no_ipam = R"({"cniVersion":"1.0.0","name":"ref-net","type":"win-bridge"})";
  const wincni::cni::Error missing =
      thrown_error([&] { wincni::cni::delegate_add("host-local", no_ipam, "1.0.0", reference_env("ADD")); });
  CHECK(missing.code() == wincni::cni::kInternal);  // Go's skel wraps untyped errors as 999
  CHECK(missing.msg() == "IPAM config missing 'ipam' key");

  const wincni::cni::Error bad_version = thrown_error([&] {
    wincni::cni::delegate_add("host-local", host_local_config("9.9.9", data.path()), "9.9.9", reference_env("ADD"));
  });
  CHECK(bad_version.code() == wincni::cni::kIncompatibleVersion);
  CHECK(bad_version.msg() == "incompatible CNI versions");
  CHECK(bad_version.details().find(R"(config is "9.9.9")") != std::string::npos);
}
