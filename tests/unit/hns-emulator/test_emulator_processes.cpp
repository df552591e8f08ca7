// Several processes on one state directory: the lock, atomic writes, and
// faults that end or stall a process.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <thread>

#include "emulator_fixture.hpp"
#include "state_files.hpp"

using namespace hns_test;
namespace hr = wincni::hns::hr;

namespace {

// Child processes wait on `gate` so that they all start at once.
class StartGate {
 public:
  StartGate() { REQUIRE(::pipe(fds_) == 0); }
  ~StartGate() {
    ::close(fds_[0]);
    if (fds_[1] >= 0) ::close(fds_[1]);
  }
  void wait() {
    ::close(fds_[1]);
    char byte;
    while (::read(fds_[0], &byte, 1) < 0 && errno == EINTR) {
    }
  }
  void open() {
    ::close(fds_[1]);  // EOF releases every child
    fds_[1] = -1;
  }

 private:
  int fds_[2];
};

// Runs `body` in a child process and returns its pid; the child's exit
// status is what body returns.
template <class Body>
pid_t spawn(Body body) {
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    int status = 99;
    try {
      status = body();
    } catch (...) {
      status = 98;
    }
    ::_exit(status);
  }
  return pid;
}

int exit_status(pid_t pid) {
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

HResult create_network(const std::string& dir, const std::string& settings) {
  Emulator emulator(config_for(dir));
  HcnHandle handle = nullptr;
  HcnReply reply = emulator.create(HcnObject::Network, nullptr, {}, settings, &handle);
  if (handle) emulator.close(HcnObject::Network, handle);
  return reply.hr;
}

HResult create_endpoint(const std::string& dir, const Guid& network, const std::string& name) {
  Emulator emulator(config_for(dir));
  HcnHandle network_handle = nullptr;
  HcnReply opened = emulator.open(HcnObject::Network, network, &network_handle);
  if (!opened.ok()) return opened.hr;
  HcnHandle handle = nullptr;
  HcnReply reply = emulator.create(HcnObject::Endpoint, network_handle, {},
                                   R"({"Name":")" + name + R"(","SchemaVersion":{"Major":2}})", &handle);
  if (handle) emulator.close(HcnObject::Endpoint, handle);
  emulator.close(HcnObject::Network, network_handle);
  return reply.hr;
}

}  // namespace

TEST_CASE("two processes create the same network name: one wins, the other gets ALREADY_EXISTS") {
  TempDir dir;
  StartGate gate;
  std::vector<pid_t> children;
  for (int i = 0; i < 2; ++i) {
    children.push_back(spawn([&] {
      gate.wait();
      HResult code = create_network(dir.path(), kBridgeNetwork);
      return code == hr::kOk ? 0 : code == hr::kNetworkAlreadyExists ? 1 : 2;
    }));
  }
  gate.open();
  std::multiset<int> statuses;
  for (pid_t child : children) statuses.insert(exit_status(child));
  CHECK(statuses == std::multiset<int>{0, 1});
  Emulator emulator(config_for(dir.path()));
  HcnReply listed = emulator.enumerate(HcnObject::Network, "");
  CHECK(json::parse(listed.output).size() == 1);
}

TEST_CASE("20 processes create endpoints at once: 20 endpoints, 20 addresses, 20 MACs") {
  EmulatorFixture fx;
  Guid network = fx.network();
  StartGate gate;
  std::vector<pid_t> children;
  for (int i = 0; i < 20; ++i) {
    children.push_back(spawn([&, i] {
      gate.wait();
      return create_endpoint(fx.dir.path(), network, "pod" + std::to_string(i) + "_cbr0") == hr::kOk ? 0 : 1;
    }));
  }
  gate.open();
  for (pid_t child : children) CHECK(exit_status(child) == 0);

  json ids = fx.enumerate(HcnObject::Endpoint);
  REQUIRE(ids.size() == 20);
  std::set<std::string> names;
  std::set<std::string> addresses;
  std::set<std::string> macs;
  for (const auto& id : ids) {
    json endpoint = fx.get(HcnObject::Endpoint, *Guid::parse(id.get<std::string>()));
    names.insert(endpoint["Name"]);
    addresses.insert(endpoint["IpConfigurations"][0]["IpAddress"]);
    macs.insert(endpoint["MacAddress"]);
  }
  CHECK(names.size() == 20);
  CHECK(addresses.size() == 20);
  CHECK(macs.size() == 20);
  CHECK(addresses.count("10.244.1.1") == 0);
  CHECK(addresses.count("10.244.1.2") == 1);
  CHECK(addresses.count("10.244.1.21") == 1);
}

TEST_CASE("a process killed at any moment never leaves a torn store") {
  EmulatorFixture fx;
  Guid network = fx.network();
  for (int round = 0; round < 8; ++round) {
    pid_t child = spawn([&] {
      for (int i = 0;; ++i) create_endpoint(fx.dir.path(), network, "churn" + std::to_string(i % 50));
      return 0;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(15 + 11 * round));
    ::kill(child, SIGKILL);
    CHECK(exit_status(child) == 128 + SIGKILL);
    // A fresh reader finds a whole store (and the lock was released by the
    // kernel): every object readable, the index agreeing with the objects.
    auto content = wincni::hns::emulator::read_file(fx.dir.path() + "/host.json");
    REQUIRE(content);
    json whole;
    CHECK_NOTHROW(whole = json::parse(*content));
    HcnReply all = fx.emulator.enumerate(HcnObject::Endpoint, "");
    REQUIRE(all.ok());
    for (const auto& id : json::parse(all.output)) {
      HcnHandle handle = nullptr;
      REQUIRE(fx.emulator.open(HcnObject::Endpoint, *Guid::parse(id.get<std::string>()), &handle).ok());
      HcnReply properties = fx.emulator.query_properties(HcnObject::Endpoint, handle, "");
      fx.emulator.close(HcnObject::Endpoint, handle);
      REQUIRE(properties.ok());
      std::string name = json::parse(properties.output)["Name"];
      HcnReply named = fx.emulator.enumerate(HcnObject::Endpoint, R"({"Filter":"{\"Name\":\")" + name + R"(\"}"})");
      REQUIRE(named.ok());
      json found = json::parse(named.output);
      CHECK(std::find(found.begin(), found.end(), id) != found.end());
    }
    CHECK_FALSE(std::filesystem::exists(fx.dir.path() + "/commit.json"));
  }
  CHECK(fx.endpoint(network, R"({"Name":"after","SchemaVersion":{"Major":2}})").ok());
}

TEST_CASE("a crash fault does the work, stores it, then ends the process before it returns") {
  EmulatorFixture fx;
  Guid network = fx.network();
  pid_t child = spawn([&] {
    ::setenv("WINCNI_EMULATOR_FAULTS", "CreateEndpoint:1:crash", 1);
    EmulatorConfig config = EmulatorConfig::from_environment();
    config.state_dir = fx.dir.path();
    Emulator emulator(config);
    HcnHandle network_handle = nullptr;
    emulator.open(HcnObject::Network, network, &network_handle);
    HcnHandle handle = nullptr;
    emulator.create(HcnObject::Endpoint, network_handle, {}, R"({"Name":"half","SchemaVersion":{"Major":2}})", &handle);
    return 0;  // never reached
  });
  CHECK(exit_status(child) == 86);
  // The endpoint exists, attached to nothing: what a crash between "create"
  // and "attach" leaves for a later DEL (or hnsctl audit) to find.
  CHECK(fx.enumerate(HcnObject::Endpoint, {{"Name", "half"}}).size() == 1);
}

TEST_CASE("a hung call does not hold the lock: others carry on") {
  EmulatorFixture fx;
  pid_t child = spawn([&] {
    EmulatorConfig config = config_for(fx.dir.path());
    config.faults = "EnumerateNetworks:1:hang";
    Emulator emulator(config);
    emulator.enumerate(HcnObject::Network, "");
    return 0;  // never reached
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(fx.create(HcnObject::Network, kBridgeNetwork).ok());
  int status = 0;
  CHECK(::waitpid(child, &status, WNOHANG) == 0);  // still hanging
  ::kill(child, SIGKILL);
  exit_status(child);
}
