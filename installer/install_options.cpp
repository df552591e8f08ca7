#include "install_options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "cluster_net_conf.hpp"
#include "node_layout.hpp"
#include "wincni/os/command_line.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::installer {

namespace {

// A flag and the variable that stands in for it.
struct Setting {
  const char* flag;
  const char* variable;
  const char* help;
};

constexpr Setting kSettings[] = {
    {"layout", "WINCNI_LAYOUT",
     "containerd (C:\\opt\\cni\\bin, C:\\etc\\cni\\net.d) or dockershim (C:\\k\\cni, "
     "C:\\k\\cni\\config); default containerd"},
    {"bin-dir", "WINCNI_BIN_DIR", "the runtime's CNI bin folder (default: the layout's)"},
    {"conf-dir", "WINCNI_CONF_DIR", "the runtime's CNI config folder (default: the layout's)"},
    {"conf-name", "WINCNI_CONF_NAME", "the config's file name (default 10-flannel.conflist)"},
    {"source-dir", "WINCNI_SOURCE_DIR", "where the binaries are copied from (default: this program's folder)"},
    {"backend", "WINCNI_BACKEND", "flanneld's backend: vxlan (default) or host-gw"},
    {"vni", "WINCNI_VNI", "the VXLAN VNI (default 4096)"},
    {"network-name", "WINCNI_NETWORK_NAME",
     "flanneld's HNS network (default: cbr0 on host-gw, flannel.<VNI> on vxlan)"},
    {"service-cidr", "WINCNI_SERVICE_CIDR",
     "the cluster's service network(s), one per family, comma-separated "
     "(required)"},
    {"cluster-cidr", "WINCNI_CLUSTER_CIDR",
     "the cluster's pod network(s); with it flanneld's net-conf.json is "
     "written too"},
    {"node-ip", "WINCNI_NODE_IP", "the node's address (default: the HNS network's, found at each ADD)"},
    {"dns-server", "WINCNI_DNS_SERVER",
     "the cluster DNS service address(es) (default: the 10th address of the "
     "IPv4 service network)"},
    {"dns-domain", "WINCNI_DNS_DOMAIN", "the cluster's DNS domain (default cluster.local)"},
    {"flanneld-conf-dir", "WINCNI_FLANNELD_CONF_DIR", "where net-conf.json goes (default C:\\etc\\kube-flannel)"},
    {"net-conf", "WINCNI_NET_CONF",
     "the cluster's flanneld net-conf.json (kube-flannel-cfg's): backend, VNI and cluster CIDR are read from it, "
     "and it is written for flanneld as it is"},
    {"containerd-config", "WINCNI_CONTAINERD_CONFIG",
     "containerd's config.toml, checked to read CNI plugins from bin-dir and configs from conf-dir (default, "
     "with the containerd layout: %ProgramFiles%\\containerd\\config.toml; none: no check)"},
};

class SettingValues {
 public:
  SettingValues(const os::ParsedOptions& flags, const cni::Environment& env) : flags_(flags), env_(env) {}

  // The flag's value, else the variable's (empty counts as unset), else "".
  // An empty flag is a mistake, not a way back to the default.
  std::string get(const Setting& setting) const {
    if (flags_.given(setting.flag)) {
      std::string value = flags_.text(setting.flag);
      if (value.empty()) throw UsageError(fmt::format("--{} is empty", setting.flag));
      return value;
    }
    return env_.get(setting.variable).value_or("");
  }
  std::string get(std::string_view flag) const { return get(find(flag)); }

  // "--vni (WINCNI_VNI)": where a bad value came from.
  std::string origin(std::string_view flag) const {
    const Setting& setting = find(flag);
    if (flags_.given(setting.flag)) return fmt::format("--{}", setting.flag);
    return setting.variable;
  }

 private:
  static const Setting& find(std::string_view flag) {
    for (const Setting& setting : kSettings) {
      if (flag == setting.flag) return setting;
    }
    throw std::logic_error("unknown setting");
  }

  const os::ParsedOptions& flags_;
  const cni::Environment& env_;
};

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string item(text.substr(start, end - start));
    const auto first = item.find_first_not_of(' ');
    const auto last = item.find_last_not_of(' ');
    if (first != std::string::npos) items.push_back(item.substr(first, last - first + 1));
    start = end + 1;
  }
  return items;
}

// One network per family, each written as its network ("10.96.0.0/12").
std::vector<cni::IpPrefix> read_networks(const SettingValues& values, std::string_view flag) {
  std::vector<cni::IpPrefix> networks;
  for (const std::string& text : split_list(values.get(flag))) {
    const auto prefix = cni::IpPrefix::parse(text);
    if (!prefix) throw UsageError(fmt::format("{}: \"{}\" is not a CIDR", values.origin(flag), text));
    if (!prefix->is_network()) {
      throw UsageError(fmt::format("{}: \"{}\" has host bits set; the network is {}", values.origin(flag), text,
                                   prefix->network().str()));
    }
    for (const cni::IpPrefix& seen : networks) {
      if (seen.address().is_v4() == prefix->address().is_v4()) {
        throw UsageError(fmt::format("{}: one network per IP family", values.origin(flag)));
      }
    }
    networks.push_back(*prefix);
  }
  return networks;
}

std::uint32_t read_vni(const SettingValues& values) {
  const std::string text = values.get("vni");
  if (text.empty()) return kDefaultVni;
  std::uint32_t vni = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), vni);
  // VXLAN's VNI is 24 bits, and flanneld's Windows backend refuses VNIs
  // below 4096 (docs/installer.md).
  if (error != std::errc() || end != text.data() + text.size() || vni < kDefaultVni || vni > 0xFFFFFF) {
    throw UsageError(fmt::format("{}: \"{}\" is not a VNI flanneld takes on Windows (4096 to 16777215)",
                                 values.origin("vni"), text));
  }
  return vni;
}

flannel::Backend read_backend(const SettingValues& values) {
  const std::string text = values.get("backend");
  if (text.empty() || text == "vxlan") return flannel::Backend::Vxlan;
  if (text == "host-gw") return flannel::Backend::HostGw;
  throw UsageError(fmt::format("{}: \"{}\" is not a backend: vxlan or host-gw", values.origin("backend"), text));
}

std::vector<cni::IpAddress> read_dns_servers(const SettingValues& values,
                                             const std::vector<cni::IpPrefix>& service_networks) {
  std::vector<cni::IpAddress> servers;
  for (const std::string& text : split_list(values.get("dns-server"))) {
    const auto address = cni::IpAddress::parse(text);
    if (!address) throw UsageError(fmt::format("{}: \"{}\" is not an IP address", values.origin("dns-server"), text));
    servers.push_back(*address);
  }
  if (!servers.empty()) return servers;
  // kubeadm gives the cluster DNS service the 10th address of the service
  // network (10.96.0.10 in 10.96.0.0/12).
  for (const cni::IpPrefix& network : service_networks) {
    if (network.address().is_v4() && network.contains(network.first().plus(10))) {
      servers.push_back(network.first().plus(10));
    }
  }
  if (servers.empty()) {
    throw UsageError(
        "--dns-server (or WINCNI_DNS_SERVER) is required: the service network has no IPv4 10th address "
        "to take as the cluster DNS service's");
  }
  return servers;
}

// A value the cluster's net-conf.json gives, and a flag or variable that
// says otherwise: one of them is wrong, and a node configured against the
// cluster's file would not reach the other nodes.
void require_same(const SettingValues& values, std::string_view flag, bool same, const std::string& file) {
  if (!values.get(flag).empty() && !same) {
    throw UsageError(fmt::format("{} \"{}\" differs from what {} says: leave it out, or correct one of them",
                                 values.origin(flag), values.get(flag), file));
  }
}

NetworkSettings read_network(const SettingValues& values) {
  NetworkSettings network;
  network.backend = read_backend(values);
  network.vni = read_vni(values);
  std::optional<ClusterNetConf> cluster;
  if (const std::string file = values.get("net-conf"); !file.empty()) {
    if (!os::private_files::starts_at_root(file)) {
      throw UsageError(fmt::format("{}: \"{}\" is not a full path", values.origin("net-conf"), file));
    }
    cluster = read_cluster_net_conf(file);
    require_same(values, "backend", network.backend == cluster->backend, file);
    network.backend = cluster->backend;
    if (cluster->backend == flannel::Backend::Vxlan) {
      require_same(values, "vni", network.vni == cluster->vni, file);
      network.vni = cluster->vni;
    }
    network.flanneld_net_conf = cluster->text;
  }
  network.network_name = values.get("network-name");
  if (network.network_name.empty()) network.network_name = flanneld_network_name(network.backend, network.vni);
  network.service_networks = read_networks(values, "service-cidr");
  if (network.service_networks.empty()) {
    throw UsageError(
        "--service-cidr (or WINCNI_SERVICE_CIDR) is required: the cluster's service network, e.g. 10.96.0.0/12; "
        "the pods' policies for reaching services are generated from it");
  }
  network.cluster_networks = read_networks(values, "cluster-cidr");
  if (cluster) {
    const auto same_networks = [&] {
      if (network.cluster_networks.size() != cluster->cluster_networks.size()) return false;
      for (std::size_t i = 0; i < network.cluster_networks.size(); ++i) {
        if (network.cluster_networks[i].str() != cluster->cluster_networks[i].str()) return false;
      }
      return true;
    };
    require_same(values, "cluster-cidr", same_networks(), values.get("net-conf"));
    network.cluster_networks = cluster->cluster_networks;
  }
  // flanneld's net-conf.json needs its IPv4 "Network" (an IPv6-only
  // cluster has none to give it).
  if (!network.cluster_networks.empty() &&
      std::none_of(network.cluster_networks.begin(), network.cluster_networks.end(),
                   [](const cni::IpPrefix& prefix) { return prefix.address().is_v4(); })) {
    throw UsageError(
        fmt::format("{}: flanneld needs an IPv4 cluster network (and an IPv6 one beside it for dual "
                    "stack)",
                    values.origin("cluster-cidr")));
  }
  for (const cni::IpPrefix& pods : network.cluster_networks) {
    for (const cni::IpPrefix& services : network.service_networks) {
      if (pods.overlaps(services)) {
        throw UsageError(fmt::format("{} {} overlaps {} {}", values.origin("cluster-cidr"), pods.str(),
                                     values.origin("service-cidr"), services.str()));
      }
    }
  }
  if (const std::string text = values.get("node-ip"); !text.empty()) {
    network.node_ip = cni::IpAddress::parse(text);
    if (!network.node_ip) {
      throw UsageError(fmt::format("{}: \"{}\" is not an IP address", values.origin("node-ip"), text));
    }
  }
  network.dns_servers = read_dns_servers(values, network.service_networks);
  if (const std::string domain = values.get("dns-domain"); !domain.empty()) network.dns_domain = domain;
  return network;
}

// A folder from the root, by the rule every plugin applies to its own
// folders (private_files::starts_at_root): a relative one would land in
// whatever folder the installer runs in, which in a HostProcess pod is the
// container's, not the node's.
std::string folder(const SettingValues& values, std::string_view flag, const std::string& fallback) {
  const std::string value = values.get(flag);
  if (value.empty()) return fallback;
  if (!os::private_files::starts_at_root(value)) {
    throw UsageError(fmt::format("{}: \"{}\" is not a full path (a folder from the root, such as C:\\opt\\cni\\bin)",
                                 values.origin(flag), value));
  }
  return value;
}

// CON, PRN, AUX, NUL, COM1-9 and LPT1-9 name devices on Windows, whatever
// the extension.
bool is_reserved_device_name(const std::string& name) {
  std::string stem = name.substr(0, name.find('.'));
  for (char& c : stem) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (stem == "CON" || stem == "PRN" || stem == "AUX" || stem == "NUL") return true;
  return stem.size() == 4 && (stem.rfind("COM", 0) == 0 || stem.rfind("LPT", 0) == 0) && stem[3] >= '1' &&
         stem[3] <= '9';
}

// The dockershim layout's kubelet runs no containerd to check.
ContainerdCheck read_containerd_check(const SettingValues& values, Layout layout, const cni::Environment& env) {
  ContainerdCheck check;
  check.builtin = cni::containerd_builtin_folders(env);
  const std::string given = values.get("containerd-config");
  check.config_file_given = !given.empty() && given != "none";
  if (given == "none") return check;
  if (given.empty()) {
    if (layout == Layout::Containerd) check.config_file = cni::containerd_default_config_file(env);
    return check;
  }
  if (!os::private_files::starts_at_root(given)) {
    throw UsageError(fmt::format("{}: \"{}\" is not a full path (such as C:\\Program Files\\containerd\\config.toml)",
                                 values.origin("containerd-config"), given));
  }
  check.config_file = given;
  return check;
}

os::OptionSet command_line_options() {
  os::OptionSet options("wincni-install",
                        "Installs wincni on a Windows node: copies the binaries next to this program into the "
                        "runtime's CNI bin folder (a running one is moved aside and removed on a later run), "
                        "writes the flannel CNI config and, with a cluster CIDR, flanneld's net-conf.json. "
                        "Running it again changes nothing. Every flag can be given as the WINCNI_* variable "
                        "named after it.");
  for (const Setting& setting : kSettings) {
    options.value(setting.flag, fmt::format("{} [{}]", setting.help, setting.variable));
  }
  options
      .flag("take-over",
            "move the configs a runtime would load before ours into <conf-dir>\\wincni-taken-over "
            "(else they make the run fail) [WINCNI_TAKE_OVER=1]")
      .flag("patch-containerd-config",
            "when containerd's config.toml points elsewhere, set its cni table to bin-dir and conf-dir (the file "
            "as it was is kept beside it as config.toml.wincni-backup) [WINCNI_PATCH_CONTAINERD_CONFIG=1]")
      .flag("binaries-only",
            "install the binaries only, for a node whose CNI config and flanneld another agent runs (rke2, k3s): "
            "no config, no net-conf.json, no cluster settings needed [WINCNI_BINARIES_ONLY=1]")
      .flag("uninstall",
            "undo an installation: remove this release's binaries, move our config aside, put back "
            "what --take-over moved and containerd's config.toml as it was before --patch-containerd-config "
            "(flanneld's net-conf.json and HNS networks stay)")
      .flag("layouts", "print the layouts' folders on a Windows node as JSON and exit")
      .flag("version", "print the version and exit")
      .flag("help", "show this help", 'h');
  return options;
}

}  // namespace

std::string flanneld_network_name(flannel::Backend backend, std::uint32_t vni) {
  return backend == flannel::Backend::HostGw ? "cbr0" : fmt::format("flannel.{}", vni);
}

ParsedCommandLine parse_command_line(const std::vector<std::string>& args, const cni::Environment& env) {
  const os::OptionSet options = command_line_options();
  ParsedCommandLine parsed;
  os::ParsedOptions flags;
  try {
    flags = options.parse(args);
  } catch (const os::CommandLineError& error) {
    throw UsageError(error.what());
  }
  if (flags.given("help")) {
    parsed.request = Request::Help;
    parsed.help_text = options.help();
    return parsed;
  }
  if (flags.given("version")) {
    parsed.request = Request::Version;
    return parsed;
  }
  if (flags.given("layouts")) {
    parsed.request = Request::Layouts;
    return parsed;
  }

  const SettingValues values(flags, env);
  const std::string layout_name = values.get("layout");
  const auto layout = parse_layout(layout_name.empty() ? "containerd" : layout_name);
  if (!layout) {
    throw UsageError(
        fmt::format("{}: \"{}\" is not a layout: containerd or dockershim", values.origin("layout"), layout_name));
  }
  const NodeFolders folders = default_folders(*layout);
  InstallOptions& options_out = parsed.options;
  options_out.bin_dir = folder(values, "bin-dir", folders.bin);
  options_out.conf_dir = folder(values, "conf-dir", folders.conf);
  options_out.conf_name = values.get("conf-name").empty() ? "10-flannel.conflist" : values.get("conf-name");
  if (options_out.conf_name.find_first_of("/\\:*?\"<>|") != std::string::npos) {
    throw UsageError(
        fmt::format("{}: a file name, not a path, without any of * ? \" < > |", values.origin("conf-name")));
  }
  // Runtimes read a network list only from a .conflist file.
  if (!options_out.conf_name.ends_with(".conflist")) {
    throw UsageError(fmt::format("{}: \"{}\" must end in .conflist: the config is a network list",
                                 values.origin("conf-name"), options_out.conf_name));
  }
  options_out.source_dir = values.get("source-dir").empty() ? "" : folder(values, "source-dir", "");
  options_out.flanneld_conf_dir = folder(values, "flanneld-conf-dir", default_flanneld_conf_dir());
  if (is_reserved_device_name(options_out.conf_name)) {
    throw UsageError(
        fmt::format("{}: \"{}\" names a device on Windows", values.origin("conf-name"), options_out.conf_name));
  }
  options_out.containerd = read_containerd_check(values, *layout, env);
  options_out.containerd.patch =
      flags.given("patch-containerd-config") || env.get_or("WINCNI_PATCH_CONTAINERD_CONFIG", "") == "1";
  if (flags.given("uninstall")) {
    // What to undo needs only the folders, not the cluster's settings.
    parsed.request = Request::Uninstall;
    return parsed;
  }
  options_out.binaries_only = flags.given("binaries-only") || env.get_or("WINCNI_BINARIES_ONLY", "") == "1";
  // The binaries need no cluster settings.
  if (options_out.binaries_only) return parsed;
  options_out.network = read_network(values);
  options_out.take_over = flags.given("take-over") || env.get_or("WINCNI_TAKE_OVER", "") == "1";
  return parsed;
}

}  // namespace wincni::installer
