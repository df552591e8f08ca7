// One child on Windows: CreateProcessW with three pipes, then one wait over
// the child's handle and the pipes' pending reads and write until everything
// is in. The parent's ends are overlapped named pipes (anonymous pipes cannot
// be waited on), the child's ends plain handles it inherits, and only those
// three: the handle list keeps a child started by another thread meanwhile
// from holding them open. Not libuv, which did this before: it was 0.2 MB
// of every .exe for this one use (docs/benchmarks.md, section 6).

#include "../child_process.hpp"

#include <windows.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "windows_command_line.hpp"
#include "wincni/os/error.hpp"
#include "wincni/os/utf16.hpp"
#include "wincni/os/win32_error_text.hpp"
#include "wincni/os/win32_handle.hpp"

namespace wincni::os::platform {
namespace {

// Once the child has exited, a grandchild that inherited its stdout or stderr
// could keep those pipes open for ever; we read on for this long, then stop.
constexpr DWORD kDrainAfterExitMs = 1000;

// How long a child ended unfed (ProcessSpec::stdin_later gave nothing, or
// gave it past the limit) is waited for before our end of its stdin closes.
constexpr DWORD kUnfedExitWaitMs = 5000;

constexpr DWORD kPipeBuffer = 64 * 1024;
constexpr DWORD kStdinWriteMax = 1u << 30;
constexpr ULONGLONG kNever = ~ULONGLONG{0};

// What a killed child reports, as libuv's uv_process_kill(SIGKILL) did.
constexpr int kKilledSignal = 9;
constexpr UINT kKilledExitCode = 1;

// Variables a Windows program cannot do without (its system folder, its
// profile, Winsock's start-up): when the environment given for the child
// lacks one, this process's value is passed on, as libuv did.
constexpr std::array<const wchar_t*, 11> kRequiredVariables = {
    L"HOMEDRIVE", L"HOMEPATH",   L"LOGONSERVER", L"PATH",        L"SYSTEMDRIVE", L"SYSTEMROOT",
    L"TEMP",      L"USERDOMAIN", L"USERNAME",    L"USERPROFILE", L"WINDIR"};

// What this process lacked to start a child (pipes, attributes): nothing
// ran, and it may work a moment later.
[[noreturn]] void cannot_prepare(const char* what, DWORD error) {
  throw StartFailure{fmt::format("{}: {}", what, win32_error_text(error)), /*final=*/false};
}

// Windows' codes that mingw-w64's winerror.h lacks.
constexpr DWORD kErrorVirusInfected = 225;
constexpr DWORD kErrorVirusDeleted = 226;
constexpr DWORD kErrorElevationRequired = 740;

// A start that cannot work however often it is tried: absent, not allowed,
// not a program, a bad name. libuv's (and strerror's) words for the common
// ones, which messages and logs have always shown.
std::optional<StartFailure> final_start_failure(DWORD error) {
  switch (error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_BAD_PATHNAME:
    case ERROR_INVALID_DRIVE:
    case ERROR_INVALID_NAME:
    case ERROR_DIRECTORY:
      return StartFailure{"no such file or directory", true};
    case ERROR_ACCESS_DENIED:
    case kErrorElevationRequired:
    case kErrorVirusInfected:
    case kErrorVirusDeleted:
      return StartFailure{"permission denied", true};
    case ERROR_BAD_EXE_FORMAT:
    case ERROR_EXE_MACHINE_TYPE_MISMATCH:
      return StartFailure{"inappropriate file type or format", true};
    case ERROR_FILENAME_EXCED_RANGE:
      return StartFailure{"name too long", true};
    case ERROR_INVALID_PARAMETER:
      return StartFailure{"invalid argument", true};
    default:
      return std::nullopt;
  }
}

bool is_file(const std::wstring& path) {
  const DWORD attributes = GetFileAttributesW(path.c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY) == 0;
}

// The program's file, as libuv found it: the path as given (a bare name is
// in the current folder, never searched for), else, when its name has no
// extension, with ".com" or ".exe" added.
std::wstring application_path(const std::string& program) {
  const std::wstring path = widen(without_path_search(program));
  if (is_file(path)) return path;
  const std::size_t last_separator = path.find_last_of(L"\\/:");
  const std::size_t name = last_separator == std::wstring::npos ? 0 : last_separator + 1;
  if (path.find(L'.', name) != std::wstring::npos) return path;
  for (const wchar_t* extension : {L".com", L".exe"}) {
    if (is_file(path + extension)) return path + extension;
  }
  return path;  // CreateProcessW says what is wrong with it
}

std::wstring_view variable_name(const std::wstring& entry) {
  // "=C:=C:\\dir" (a drive's current folder) has a name that starts with '='.
  const std::size_t equals = entry.find(L'=', 1);
  return std::wstring_view(entry).substr(0, equals == std::wstring::npos ? entry.size() : equals);
}

// Two variables' names compared as Windows compares them: ordinally, case
// ignored (CSTR_LESS_THAN, CSTR_EQUAL or CSTR_GREATER_THAN).
int compare_names(const std::wstring& a, const std::wstring& b) {
  const std::wstring_view x = variable_name(a);
  const std::wstring_view y = variable_name(b);
  return CompareStringOrdinal(x.data(), static_cast<int>(x.size()), y.data(), static_cast<int>(y.size()), TRUE);
}

// The child's environment block: the given entries, the required variables
// they lack, sorted by name without regard to case as Windows keeps them.
std::wstring environment_block(char* const* envp) {
  std::vector<std::wstring> entries;
  for (char* const* entry = envp; *entry != nullptr; ++entry) {
    // An empty one would end the block there.
    if (**entry != '\0') entries.push_back(widen(*entry));
  }
  for (const wchar_t* name : kRequiredVariables) {
    const bool given = std::any_of(entries.begin(), entries.end(),
                                   [&](const std::wstring& entry) { return compare_names(entry, name) == CSTR_EQUAL; });
    if (given) continue;
    const DWORD size = GetEnvironmentVariableW(name, nullptr, 0);
    if (size == 0) continue;
    std::wstring value(size, L'\0');
    const DWORD length = GetEnvironmentVariableW(name, value.data(), size);
    if (length == 0 || length >= size) continue;
    value.resize(length);
    entries.push_back(std::wstring(name) + L'=' + value);
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const std::wstring& a, const std::wstring& b) { return compare_names(a, b) == CSTR_LESS_THAN; });
  std::wstring block;
  for (const std::wstring& entry : entries) {
    block += entry;
    block += L'\0';
  }
  // An empty block is two NULs; otherwise one more ends the list.
  if (entries.empty()) block += L'\0';
  block += L'\0';
  return block;
}

// The job every child is put in, which Windows ends with all its processes
// when this process ends (its one handle closes then), as libuv did: a
// delegate never outlives the plugin that started it, however the plugin
// ends. Breakaway is silent, so a child's own children are not in it: each
// level's job holds the children it started. Null when no job can be made;
// the children then run outside one.
HANDLE children_job() {
  static const HANDLE job = [] {
    HANDLE made = CreateJobObjectW(nullptr, nullptr);
    if (made == nullptr) return HANDLE{nullptr};
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_BREAKAWAY_OK | JOB_OBJECT_LIMIT_SILENT_BREAKAWAY_OK |
                                              JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION |
                                              JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    if (!SetInformationJobObject(made, JobObjectExtendedLimitInformation, &limits, sizeof(limits))) {
      CloseHandle(made);
      return HANDLE{nullptr};
    }
    return made;
  }();
  return job;
}

// One pipe: the overlapped end this process reads or writes, and the end
// the child inherits as a standard handle.
struct Pipe {
  Win32Handle ours{INVALID_HANDLE_VALUE};
  Win32Handle childs{INVALID_HANDLE_VALUE};
};

Pipe make_pipe(bool child_writes) {
  static std::atomic<unsigned> serial{0};
  // Unique on the machine: this process's ID and a count; the first-instance
  // flag refuses a name that is somehow taken.
  const std::wstring name =
      widen(fmt::format("\\\\.\\pipe\\wincni-{}-{}-{}", GetCurrentProcessId(), serial.fetch_add(1), GetTickCount64()));
  const DWORD direction = child_writes ? PIPE_ACCESS_INBOUND : PIPE_ACCESS_OUTBOUND;
  Pipe pipe;
  const DWORD open_mode = direction | FILE_FLAG_OVERLAPPED | FILE_FLAG_FIRST_PIPE_INSTANCE;
  const DWORD pipe_mode = PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS;
  pipe.ours =
      Win32Handle(CreateNamedPipeW(name.c_str(), open_mode, pipe_mode, 1, kPipeBuffer, kPipeBuffer, 0, nullptr));
  if (!pipe.ours.valid()) cannot_prepare("cannot create a pipe", GetLastError());
  SECURITY_ATTRIBUTES inherited{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  // The child may ask its handles about themselves (their type, whether a
  // console): the other direction's attributes are granted too.
  const DWORD access = child_writes ? GENERIC_WRITE | FILE_READ_ATTRIBUTES : GENERIC_READ | FILE_WRITE_ATTRIBUTES;
  pipe.childs = Win32Handle(CreateFileW(name.c_str(), access, 0, &inherited, OPEN_EXISTING, 0, nullptr));
  if (!pipe.childs.valid()) cannot_prepare("cannot open a pipe", GetLastError());
  return pipe;
}

// An overlapped transfer on our end of a pipe: its event, whether one is
// under way, and for an output the buffer it reads into.
struct Transfer {
  Pipe pipe;
  Win32Handle event;
  OVERLAPPED overlapped{};
  bool pending = false;
  std::unique_ptr<char[]> buffer;  // outputs only; not zeroed, ReadFile fills what is used

  explicit Transfer(bool child_writes)
      : pipe(make_pipe(child_writes)), event(CreateEventW(nullptr, TRUE, FALSE, nullptr)) {
    if (!event.valid()) cannot_prepare("cannot create an event", GetLastError());
  }
  ~Transfer() { close(); }
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;

  // A fresh OVERLAPPED on the event, for the next read or write.
  OVERLAPPED* next() {
    ResetEvent(event.get());
    overlapped = OVERLAPPED{};
    overlapped.hEvent = event.get();
    return &overlapped;
  }

  // Stops what is under way, waits until the system no longer uses the
  // buffer, then closes our end.
  void close() {
    if (pending) {
      CancelIoEx(pipe.ours.get(), &overlapped);
      DWORD ignored = 0;
      GetOverlappedResult(pipe.ours.get(), &overlapped, &ignored, TRUE);
      pending = false;
    }
    pipe.ours.close();
  }
};

// The attribute list that limits what the child inherits to its three
// standard handles.
class InheritedHandles {
 public:
  explicit InheritedHandles(std::array<HANDLE, 3> handles) : handles_(handles) {
    SIZE_T size = 0;
    InitializeProcThreadAttributeList(nullptr, 1, 0, &size);
    storage_.resize(size);
    list_ = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(storage_.data());
    if (!InitializeProcThreadAttributeList(list_, 1, 0, &size)) {
      cannot_prepare("cannot prepare its handles", GetLastError());
    }
    if (!UpdateProcThreadAttribute(list_, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, handles_.data(),
                                   handles_.size() * sizeof(HANDLE), nullptr, nullptr)) {
      const DWORD error = GetLastError();
      DeleteProcThreadAttributeList(list_);
      cannot_prepare("cannot prepare its handles", error);
    }
  }
  ~InheritedHandles() { DeleteProcThreadAttributeList(list_); }
  InheritedHandles(const InheritedHandles&) = delete;
  InheritedHandles& operator=(const InheritedHandles&) = delete;
  LPPROC_THREAD_ATTRIBUTE_LIST get() const { return list_; }

 private:
  std::array<HANDLE, 3> handles_;  // the list points into it
  std::vector<unsigned char> storage_;
  LPPROC_THREAD_ATTRIBUTE_LIST list_ = nullptr;
};

class ChildRun {
 public:
  explicit ChildRun(const ProcessSpec& spec) : spec_(spec) {}
  ChildRun(const ChildRun&) = delete;
  ChildRun& operator=(const ChildRun&) = delete;

  // A child still running when the run ends early (an exception) is killed:
  // no process outlives the call.
  ~ChildRun() {
    if (process_.valid() && !exited_) TerminateProcess(process_.get(), kKilledExitCode);
  }

  ProcessOutcome run() {
    start();
    // The limit counts from here, a wait for stdin_later included. A limit
    // past the clock's range (INT64_MAX ms, "for ever") never comes.
    const ULONGLONG started = GetTickCount64();
    const auto limit = static_cast<ULONGLONG>(spec_.timeout.count());
    const ULONGLONG kill_at = spec_.timeout.count() > 0 && limit < kNever - started ? started + limit : kNever;
    take_stdin(kill_at);
    write_stdin();
    for (Transfer* output : {&stdout_, &stderr_}) {
      output->buffer.reset(new char[kPipeBuffer]);
      read_next(*output);
    }
    ULONGLONG drain_until = kNever;
    for (;;) {
      // The deadlines are looked at on every pass, not only when a wait
      // times out: a child (or a grandchild) that writes without pause
      // never lets one time out.
      const ULONGLONG now = GetTickCount64();
      if (exited_ && now >= drain_until) break;  // what a grandchild holds open is left
      if (!exited_ && !outcome_.timed_out && now >= kill_at) kill();
      // What is waited for: the child's exit, then each transfer under way.
      std::vector<HANDLE> handles;
      std::vector<Transfer*> owners;  // null for the child
      if (!exited_) {
        handles.push_back(process_.get());
        owners.push_back(nullptr);
      }
      for (Transfer* transfer : {&stdin_, &stdout_, &stderr_}) {
        if (!transfer->pending) continue;
        handles.push_back(transfer->event.get());
        owners.push_back(transfer);
      }
      if (handles.empty()) break;
      const ULONGLONG until = exited_ ? drain_until : outcome_.timed_out ? kNever : kill_at;
      // A wait is at most INFINITE - 1 ms; a later deadline takes several.
      const auto wait_ms = static_cast<DWORD>(std::min<ULONGLONG>(until - now, INFINITE - 1));
      const DWORD woken = WaitForMultipleObjects(static_cast<DWORD>(handles.size()), handles.data(), FALSE, wait_ms);
      if (woken == WAIT_TIMEOUT) continue;
      if (woken >= WAIT_OBJECT_0 + handles.size()) {
        throw Error(kIoFailure,
                    fmt::format("cannot wait for \"{}\": {}", spec_.program, win32_error_text(GetLastError())));
      }
      // Every object that is ready, not only the first the wait names: a
      // flooding stdout must not starve stderr. (None before it is ready.)
      for (std::size_t i = woken - WAIT_OBJECT_0; i < handles.size(); ++i) {
        if (i != woken - WAIT_OBJECT_0 && WaitForSingleObject(handles[i], 0) != WAIT_OBJECT_0) continue;
        if (owners[i] != nullptr) {
          on_completed(*owners[i]);
        } else {
          on_exit();
          drain_until = GetTickCount64() + kDrainAfterExitMs;
        }
      }
    }
    // The drain ended: a read that completed meanwhile is kept, the rest
    // cancelled.
    for (Transfer* output : {&stdout_, &stderr_}) {
      if (output->pending && HasOverlappedIoCompleted(&output->overlapped)) on_completed(*output);
      output->close();
    }
    return std::move(outcome_);
  }

 private:
  void start() {
    ExecArguments arguments(spec_);
    std::wstring line = widen(windows_command_line(arguments.argv()));
    std::wstring environment = environment_block(arguments.envp());
    InheritedHandles inherited({stdin_.pipe.childs.get(), stdout_.pipe.childs.get(), stderr_.pipe.childs.get()});

    STARTUPINFOEXW startup{};
    startup.StartupInfo.cb = sizeof(startup);
    startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    startup.StartupInfo.hStdInput = stdin_.pipe.childs.get();
    startup.StartupInfo.hStdOutput = stdout_.pipe.childs.get();
    startup.StartupInfo.hStdError = stderr_.pipe.childs.get();
    startup.lpAttributeList = inherited.get();
    PROCESS_INFORMATION started{};
    // No CREATE_NO_WINDOW: the child shares our console, as Go's os/exec
    // does; under Wine a console of its own is a conhost that may outlive a
    // killed child while holding our stdout open.
    if (!CreateProcessW(application_path(spec_.program).c_str(), line.data(), nullptr, nullptr, TRUE,
                        CREATE_UNICODE_ENVIRONMENT | EXTENDED_STARTUPINFO_PRESENT, environment.data(), nullptr,
                        &startup.StartupInfo, &started)) {
      const DWORD error = GetLastError();
      if (std::optional<StartFailure> final = final_start_failure(error)) throw *final;
      throw StartFailure{win32_error_text(error), false};
    }
    CloseHandle(started.hThread);
    process_ = Win32Handle(started.hProcess);
    // Not started suspended: a plugin killed between the start and the
    // resumption would leave a child suspended for ever, where this way it
    // runs its course. Its own children are not in the job either way
    // (breakaway is silent). Refused when this process is in a job that
    // allows no nested one (before Windows 8): the child then runs outside
    // it, as with libuv.
    if (HANDLE job = children_job(); job != nullptr) AssignProcessToJobObject(job, process_.get());
    // The child has its copies; ours would keep its outputs from ending.
    for (Transfer* transfer : {&stdin_, &stdout_, &stderr_}) transfer->pipe.childs.close();
  }

  // From spec.stdin_later, when it is set. A child given nothing, or given
  // it past its limit, is ended unfed, and before our end of its stdin
  // closes: termination is asynchronous, and a child that saw the end of
  // its stdin first could act on an empty config.
  void take_stdin(ULONGLONG kill_at) {
    if (!spec_.stdin_later) return;
    late_stdin_ = spec_.stdin_later();
    if (late_stdin_ && GetTickCount64() < kill_at) {
      stdin_data_ = *late_stdin_;
      return;
    }
    stdin_data_ = {};
    if (late_stdin_) {
      kill();
    } else {
      outcome_.unfed = true;
      if (TerminateProcess(process_.get(), kKilledExitCode)) outcome_.term_signal = kKilledSignal;
    }
    WaitForSingleObject(process_.get(), kUnfedExitWaitMs);
  }

  // The next part of stdin (a write takes at most a DWORD's worth); our end
  // is closed once all of it is written, or when the child takes no more.
  void write_stdin() {
    const std::string_view data = stdin_data_;
    if (stdin_written_ >= data.size()) {
      stdin_.close();
      return;
    }
    const auto size = static_cast<DWORD>(std::min<std::size_t>(data.size() - stdin_written_, kStdinWriteMax));
    if (!WriteFile(stdin_.pipe.ours.get(), data.data() + stdin_written_, size, nullptr, stdin_.next()) &&
        GetLastError() != ERROR_IO_PENDING) {
      stdin_.close();  // the child has gone, or closed its stdin
      return;
    }
    stdin_.pending = true;  // the event is set when it ends, also when it ended at once
  }

  void read_next(Transfer& output) {
    if (!ReadFile(output.pipe.ours.get(), output.buffer.get(), kPipeBuffer, nullptr, output.next()) &&
        GetLastError() != ERROR_IO_PENDING) {
      output.close();  // the end of the output (ERROR_BROKEN_PIPE), or a read error
      return;
    }
    output.pending = true;
  }

  void on_completed(Transfer& transfer) {
    DWORD count = 0;
    const BOOL ok = GetOverlappedResult(transfer.pipe.ours.get(), &transfer.overlapped, &count, FALSE);
    transfer.pending = false;
    if (!ok) {
      transfer.close();  // an output ended, or the child takes no more stdin
      return;
    }
    if (&transfer == &stdin_) {
      stdin_written_ += count;
      write_stdin();
      return;
    }
    (&transfer == &stdout_ ? outcome_.out : outcome_.err).append(transfer.buffer.get(), count);
    read_next(transfer);
  }

  // At the limit: timed out whatever happens, killed unless it has just
  // exited by itself.
  void kill() {
    outcome_.timed_out = true;
    if (TerminateProcess(process_.get(), kKilledExitCode)) outcome_.term_signal = kKilledSignal;
  }

  void on_exit() {
    exited_ = true;
    DWORD code = 0;
    if (!GetExitCodeProcess(process_.get(), &code)) {
      throw Error(kIoFailure, fmt::format("cannot read the exit status of \"{}\": {}", spec_.program,
                                          win32_error_text(GetLastError())));
    }
    outcome_.exit_code = static_cast<int>(code);
    stdin_.close();
  }

  const ProcessSpec& spec_;
  std::optional<std::string> late_stdin_;
  std::string_view stdin_data_ = spec_.stdin_data;
  ProcessOutcome outcome_;
  Transfer stdin_{/*child_writes=*/false};
  Transfer stdout_{/*child_writes=*/true};
  Transfer stderr_{/*child_writes=*/true};
  Win32Handle process_{INVALID_HANDLE_VALUE};
  std::size_t stdin_written_ = 0;
  bool exited_ = false;
};

// STATUS_DLL_INIT_FAILED: the loader gave up because a DLL's
// initialisation failed, almost certainly before the program's own code
// ran (a program could end with this status itself, but none of ours or
// of the CNI plugins we start does, and never silently). Windows does this
// to a process started while the desktop heap is exhausted (many processes
// on a busy node), and perhaps Wine under load; a moment later the same
// program starts. With any output the program did run, and its status
// stands.
constexpr std::uint32_t kDllInitFailed = 0xC0000142;

bool never_ran(const ProcessOutcome& outcome) {
  return static_cast<std::uint32_t>(outcome.exit_code) == kDllInitFailed && !outcome.timed_out && !outcome.unfed &&
         outcome.out.empty() && outcome.err.empty();
}

}  // namespace

ProcessOutcome run_child(const ProcessSpec& spec) {
  ChildRun child(spec);
  ProcessOutcome outcome = child.run();
  if (never_ran(outcome)) throw StartFailure{"its DLLs failed to initialise (0xC0000142)", false};
  return outcome;
}

}  // namespace wincni::os::platform
