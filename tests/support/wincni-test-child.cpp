// A scriptable child process for the process and delegation tests: it stands
// in for a CNI plugin without being one (no skel, no libcni), so those tests
// only exercise the spawning side. Works the same as a Linux or a Windows .exe.
//
// What it does comes from the environment variable WINCNI_TEST_SCRIPT, a JSON
// object; every key is optional and the steps run in this order:
//   "started":   path of a file that gains one line per run before stdin is
//                read (a child that waits for its stdin has started)
//   "tally":     path of a file that gains one line per run
//   "record":    path ("-" for stdout) that receives {"argv","env","stdin"},
//                and on Windows "job": the limits of the job it runs in
//                (JOBOBJECT_BASIC_LIMIT_INFORMATION's LimitFlags; null
//                outside a job)
//   "sleep_ms":  sleep this long (less if the file "until" appears), then, if
//                given, create the file "marker"
//   "echo_stdin": true copies stdin to stdout
//   "stdout", "stderr": text written verbatim
//   "flood":     this many bytes written to stdout and to stderr each
//   "stream_ms": write to stdout and stderr without pause for this long
//   "exit":      exit code (default 0)
// Stdin is read fully first unless "ignore_stdin" is true.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#define WINCNI_ENVIRON _environ
#else
extern char** environ;
#define WINCNI_ENVIRON environ
#endif

namespace {

using nlohmann::json;

void use_binary_stdio() {
#ifdef _WIN32
  // Text mode would turn "\n" into "\r\n" and break byte-exact echo tests.
  _setmode(_fileno(stdin), _O_BINARY);
  _setmode(_fileno(stdout), _O_BINARY);
  _setmode(_fileno(stderr), _O_BINARY);
#endif
}

json environment_as_json() {
  json env = json::object();
  for (char** entry = WINCNI_ENVIRON; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string kv(*entry);
    const auto eq = kv.find('=', 1);  // Windows has "=C:=C:\\..." entries
    if (eq == std::string::npos) continue;
    env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
}

#ifdef _WIN32
json job_limits() {
  BOOL in_job = FALSE;
  if (!IsProcessInJob(GetCurrentProcess(), nullptr, &in_job) || !in_job) return nullptr;
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
  // No job handle: the job this process is in.
  if (!QueryInformationJobObject(nullptr, JobObjectExtendedLimitInformation, &limits, sizeof(limits), nullptr)) {
    return "unreadable";
  }
  return limits.BasicLimitInformation.LimitFlags;
}
#endif

void write_record(const std::string& where, int argc, char** argv, const std::string& input) {
  json args = json::array();
  for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
  json record{{"argv", args}, {"env", environment_as_json()}, {"stdin", input}};
#ifdef _WIN32
  record["job"] = job_limits();
#endif
  const std::string text = record.dump();
  if (where == "-") {
    std::cout << text;
  } else {
    std::ofstream(where, std::ios::binary) << text;
  }
}

}  // namespace

int main(int argc, char** argv) {
  use_binary_stdio();
  const char* raw_script = std::getenv("WINCNI_TEST_SCRIPT");
  json script = json::object();
  if (raw_script != nullptr) {
    script = json::parse(raw_script, nullptr, false);
    if (script.is_discarded() || !script.is_object()) {
      std::cerr << "wincni-test-child: WINCNI_TEST_SCRIPT is not a JSON object\n";
      return 2;
    }
  }

  if (script.contains("started")) std::ofstream(script["started"].get<std::string>(), std::ios::app) << "started\n";
  std::string input;
  if (!script.value("ignore_stdin", false)) {
    input.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  if (script.contains("tally")) std::ofstream(script["tally"].get<std::string>(), std::ios::app) << "ran\n";
  if (script.contains("record")) write_record(script["record"].get<std::string>(), argc, argv, input);
  if (script.contains("sleep_ms")) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(script["sleep_ms"].get<long long>());
    const std::string until = script.value("until", "");
    if (until.empty()) std::this_thread::sleep_until(deadline);
    while (std::chrono::steady_clock::now() < deadline && !std::ifstream(until).good()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (script.contains("marker")) std::ofstream(script["marker"].get<std::string>()) << "still alive\n";
  }
  if (script.value("echo_stdin", false)) std::cout << input;
  std::cout << script.value("stdout", "");
  std::cerr << script.value("stderr", "");
  if (script.contains("flood")) {
    const std::string bytes(script["flood"].get<std::size_t>(), 'x');
    std::cout << bytes;
    std::cerr << bytes;
  }
  if (script.contains("stream_ms")) {
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(script["stream_ms"].get<long long>());
    const std::string chunk(4096, 'y');
    while (std::chrono::steady_clock::now() < until) {
      std::cout << chunk << std::flush;
      std::cerr << chunk << std::flush;
    }
  }
  std::cout.flush();
  std::cerr.flush();
  return script.value("exit", 0);
}
