#include "wincni/flannel/subnet_env.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <thread>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::flannel {
namespace {

using cni::IpFamily;
using cni::IpPrefix;

// A subnet.env is a few lines; anything this large is not one, and reading
// it line by line would only make the error slower.
constexpr std::size_t kMaxSize = 64 * 1024;

constexpr std::string_view kNetwork = "FLANNEL_NETWORK";
constexpr std::string_view kSubnet = "FLANNEL_SUBNET";
constexpr std::string_view kIpv6Network = "FLANNEL_IPV6_NETWORK";
constexpr std::string_view kIpv6Subnet = "FLANNEL_IPV6_SUBNET";
constexpr std::string_view kMtu = "FLANNEL_MTU";
constexpr std::string_view kIpMasq = "FLANNEL_IPMASQ";
constexpr std::array kKnownKeys = {kNetwork, kSubnet, kIpv6Network, kIpv6Subnet, kMtu, kIpMasq};

class Parser {
 public:
  explicit Parser(std::string_view path) : path_(path) {}

  void line(std::string_view text, std::size_t number) {
    if (text.ends_with('\r')) text.remove_suffix(1);
    number_ = number;
    const auto equals = text.find('=');
    if (equals == std::string_view::npos) {
      // The reference indexes past the end here and panics.
      if (std::find(kKnownKeys.begin(), kKnownKeys.end(), text) != kKnownKeys.end())
        fail(fmt::format("{} has no value", text));
      return;
    }
    const std::string_view key = text.substr(0, equals);
    const std::string_view value = text.substr(equals + 1);
    if (key == kNetwork) {
      env_.networks = prefix_list(key, value, IpFamily::V4);
      seen_network_ = true;
    } else if (key == kIpv6Network) {
      env_.ipv6_networks = prefix_list(key, value, IpFamily::V6);
      seen_network_ = true;
    } else if (key == kSubnet) {
      env_.subnet = prefix(key, value, IpFamily::V4);
    } else if (key == kIpv6Subnet) {
      env_.ipv6_subnet = prefix(key, value, IpFamily::V6);
    } else if (key == kMtu) {
      env_.mtu = mtu(value);
      seen_mtu_ = true;
    } else if (key == kIpMasq) {
      env_.ip_masq = value == "true";
      seen_ip_masq_ = true;
    }
  }

  SubnetEnv finish() const {
    std::vector<std::string> missing;
    if (!seen_network_) missing.push_back(fmt::format("{}, {}", kNetwork, kIpv6Network));
    if (!env_.subnet && !env_.ipv6_subnet) missing.push_back(fmt::format("{}, {}", kSubnet, kIpv6Subnet));
    if (!seen_mtu_) missing.emplace_back(kMtu);
    if (!seen_ip_masq_) missing.emplace_back(kIpMasq);
    if (!missing.empty()) {
      throw cni::Error(cni::kInvalidNetworkConfig, fmt::format("{} is missing {}", path_, fmt::join(missing, ", ")));
    }
    return env_;
  }

 private:
  [[noreturn]] void fail(std::string_view problem) const {
    throw cni::Error(cni::kInvalidNetworkConfig, fmt::format("{} line {}: {}", path_, number_, problem));
  }

  IpPrefix prefix(std::string_view key, std::string_view text, IpFamily family) const {
    auto parsed = IpPrefix::parse(text);
    if (!parsed) fail(fmt::format("{}: invalid CIDR address: {}", key, text));
    if (parsed->family() != family) {
      fail(fmt::format("{}: {} is not an IPv{} prefix", key, text, family == IpFamily::V4 ? 4 : 6));
    }
    return parsed->network();
  }

  // A repeated line replaces the list, as in the reference.
  std::vector<IpPrefix> prefix_list(std::string_view key, std::string_view text, IpFamily family) const {
    std::vector<IpPrefix> list;
    std::size_t start = 0;
    while (true) {
      const auto comma = text.find(',', start);
      const IpPrefix item =
          prefix(key, text.substr(start, comma == std::string_view::npos ? comma : comma - start), family);
      if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
      if (comma == std::string_view::npos) return list;
      start = comma + 1;
    }
  }

  std::uint32_t mtu(std::string_view text) const {
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
      fail(fmt::format("{}: \"{}\" is not an MTU", kMtu, text));
    }
    return value;
  }

  std::string path_;
  std::size_t number_ = 0;
  SubnetEnv env_;
  bool seen_network_ = false;
  bool seen_mtu_ = false;
  bool seen_ip_masq_ = false;
};

}  // namespace

SubnetEnv parse_subnet_env(std::string_view text, std::string_view path) {
  if (text.size() > kMaxSize) {
    throw cni::Error(
        cni::kInvalidNetworkConfig,
        fmt::format("{} is {} bytes: that is not flanneld's subnet.env, which is a few lines", path, text.size()));
  }
  // flanneld writes plain ASCII; a byte-order mark means an operator wrote
  // the file by hand on Windows. Notepad's and PowerShell 7's UTF-8 mark is
  // harmless; Windows PowerShell 5.1's `>` and Out-File write UTF-16, whose
  // every other byte is NUL: no key would match, so say what happened.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF")) {
    throw cni::Error(cni::kInvalidNetworkConfig,
                     fmt::format("{} is UTF-16 text (what Windows PowerShell's '>' and Out-File write); flannel reads "
                                 "subnet.env as ASCII: write it with Set-Content -Encoding ascii",
                                 path));
  }
  Parser parser(path);
  std::size_t number = 1;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto newline = text.find('\n', start);
    const std::string_view line =
        text.substr(start, newline == std::string_view::npos ? std::string_view::npos : newline - start);
    if (!line.empty() || newline != std::string_view::npos) parser.line(line, number);
    if (newline == std::string_view::npos) break;
    start = newline + 1;
    ++number;
  }
  return parser.finish();
}

std::optional<SubnetEnv> read_subnet_env(const std::string& path) {
  std::optional<std::string> text;
  try {
    // Bounded: a huge file (a config naming the wrong one) is refused
    // before it is read whole.
    text = os::private_files::read_file(path, kMaxSize);
  } catch (const os::private_files::FileTooLarge&) {
    throw cni::Error(
        cni::kInvalidNetworkConfig,
        fmt::format("{} is over {} bytes: that is not flanneld's subnet.env, which is a few lines", path, kMaxSize));
  } catch (const cni::Error& e) {
    throw cni::Error(cni::kIoFailure, fmt::format("failed to load flannel 'subnet.env' file: {}", e.msg()));
  }
  if (!text) return std::nullopt;
  return parse_subnet_env(*text, path);
}

std::string missing_subnet_env_message(const std::string& path) {
  return fmt::format(
      "flannel's subnet.env {} does not exist: check that flanneld runs on this node and has a lease (its log), "
      "and that subnetFile names the file it writes (a path without a drive letter is on the current drive, "
      "C:\\run\\flannel\\subnet.env by default)",
      path);
}

SubnetEnv wait_for_subnet_env(const std::string& path, std::chrono::milliseconds wait) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + wait;
  constexpr auto kPoll = std::chrono::milliseconds(50);
  while (true) {
    if (auto env = read_subnet_env(path)) return *env;
    const auto now = Clock::now();
    if (now >= deadline) break;
    std::this_thread::sleep_for(std::min<Clock::duration>(kPoll, deadline - now));
  }
  throw cni::Error(cni::kTryAgainLater,
                   missing_subnet_env_message(path) +
                       fmt::format(" (waited {} ms; subnetFileWaitSeconds sets how long)", wait.count()));
}

}  // namespace wincni::flannel
