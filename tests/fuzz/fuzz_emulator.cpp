// The HNS emulator taking requests: the input is the settings of every HCN
// create and modify call and the body of HNSCall's POSTs, against a host
// that already has a network, an endpoint on it and a namespace. Each input
// starts from a copy of that host, so that no input changes what the next
// one meets and the store stays small.
//
// A request never makes the emulator answer E_FAIL: that is its answer for
// a store it cannot use (emulator.cpp), so seeing it here, on a healthy
// store and without faults, means an exception of the request's own making
// escaped as HNS breaking.

#include <fstream>
#include <iterator>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"
#include "wincni/hns/emulator/emulator.hpp"
#include "wincni/hns/hresult.hpp"

using namespace wincni::hns;
using emulator::Emulator;

namespace {

namespace fs = std::filesystem;

// The state directory's files, by path inside it: written out afresh for
// each input (std::filesystem::copy gives up when libFuzzer's timer signal
// interrupts it; streams retry).
using Files = std::vector<std::pair<fs::path, std::string>>;

struct Host {
  Files files;
  Guid network, endpoint, ns;
};

Files read_tree(const fs::path& root) {
  Files files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files.emplace_back(fs::relative(entry.path(), root), std::string(std::istreambuf_iterator<char>(in), {}));
  }
  return files;
}

void write_tree(const fs::path& root, const Files& files) {
  for (const auto& [path, content] : files) {
    fs::create_directories((root / path).parent_path());
    std::ofstream(root / path, std::ios::binary) << content;
  }
}

emulator::EmulatorConfig config_for(const fs::path& dir) {
  emulator::EmulatorConfig config;
  config.state_dir = dir.string();
  return config;
}

Guid created(Emulator& hns, HcnObject kind, HcnHandle parent, std::string_view settings) {
  HcnHandle handle = nullptr;
  HcnReply reply = hns.create(kind, parent, Guid{}, settings, &handle);
  if (!reply.ok()) {
    std::fprintf(stderr, "fuzz: the emulator refused the base host: %s\n", reply.error_record.c_str());
    std::abort();
  }
  auto properties = nlohmann::json::parse(hns.query_properties(kind, handle, "").output);
  hns.close(kind, handle);
  return *Guid::parse(properties["ID"].get<std::string>());
}

const Host& base_host() {
  static const Host host = [] {
    Host made;
    const fs::path state = fuzz::scratch_dir("emulator-base");
    Emulator hns(config_for(state));
    made.network = created(hns, HcnObject::Network, nullptr, R"({"Name":"cbr0","Type":"L2Bridge",
      "Ipams":[{"Type":"Static","Subnets":[{"IpAddressPrefix":"10.244.1.0/24",
      "Routes":[{"NextHop":"10.244.1.1","DestinationPrefix":"0.0.0.0/0"}]}]}],
      "SchemaVersion":{"Major":2,"Minor":0}})");
    HcnHandle network = nullptr;
    hns.open(HcnObject::Network, made.network, &network);
    made.endpoint =
        created(hns, HcnObject::Endpoint, network, R"({"Name":"pod_eth0","SchemaVersion":{"Major":2,"Minor":0}})");
    hns.close(HcnObject::Network, network);
    made.ns = created(hns, HcnObject::Namespace, nullptr, R"({"SchemaVersion":{"Major":2,"Minor":0}})");
    made.files = read_tree(state);
    return made;
  }();
  return host;
}

void check(HResult hr, const std::string& what, const std::string& record) {
  if (hr != hr::kFail) return;
  std::fprintf(stderr, "fuzz: %s answered E_FAIL: %s\n", what.c_str(), record.c_str());
  std::abort();
}

void modify(Emulator& hns, HcnObject kind, const Guid& id, std::string_view settings) {
  HcnHandle handle = nullptr;
  hns.open(kind, id, &handle);
  HcnReply reply = hns.modify(kind, handle, settings);
  check(reply.hr, "Modify" + std::string(object_name(kind)), reply.error_record);
  hns.close(kind, handle);
}

void create(Emulator& hns, HcnObject kind, const Guid& parent_id, std::string_view settings) {
  HcnHandle parent = nullptr;
  if (!parent_id.is_null()) hns.open(HcnObject::Network, parent_id, &parent);
  HcnHandle handle = nullptr;
  HcnReply reply = hns.create(kind, parent, Guid{}, settings, &handle);
  check(reply.hr, "Create" + std::string(object_name(kind)), reply.error_record);
  if (handle) hns.close(kind, handle);
  if (parent) hns.close(HcnObject::Network, parent);
}

void post(Emulator& hns, const std::string& path, std::string_view body) {
  HnsCallReply reply = hns.hns_call("POST", path, body);
  check(reply.hr, "POST " + path, reply.response);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Host& base = base_host();
  const auto settings = fuzz::text(data, size);
  const fs::path state = fuzz::scratch_dir("emulator");
  write_tree(state, base.files);

  fuzz::tolerating<>([&] {
    Emulator hns(config_for(state));
    create(hns, HcnObject::Network, {}, settings);
    create(hns, HcnObject::Endpoint, base.network, settings);
    create(hns, HcnObject::Namespace, {}, settings);
    modify(hns, HcnObject::Network, base.network, settings);
    modify(hns, HcnObject::Endpoint, base.endpoint, settings);
    modify(hns, HcnObject::Namespace, base.ns, settings);
    post(hns, "/networks/", settings);
    post(hns, "/endpoints/", settings);
    post(hns, "/endpoints/" + base.endpoint.str(), settings);
    post(hns, "/endpoints/" + base.endpoint.str() + "/attach", settings);
    post(hns, "/namespaces/" + base.ns.str() + "/addresource", settings);
  });
  return 0;
}
