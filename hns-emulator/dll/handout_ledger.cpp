#include "handout_ledger.hpp"

#include <objbase.h>
#include <objidl.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "state_files.hpp"
#include "wincni/os/utf16.hpp"
#include "wincni/hns/emulator/emulator.hpp"
#include "wincni/hns/win32/co_task_string.hpp"

namespace wincni::hns::emulator_dll {
namespace {

// Counts nothing itself: it only hears of frees, and forgets the handouts
// they release. Allocation and the other calls pass through unchanged.
class Ledger final : public IMallocSpy {
 public:
  void add(void* block, const char* call) {
    std::lock_guard lock(mutex_);
    held_[block] = call;
  }

  // "N strings from A, B" for what is still held; "" when nothing is. Never
  // blocks: a thread that held the lock may have been ended with the process.
  std::string unfreed() {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock() || held_.empty()) return {};
    std::set<std::string> calls;
    for (const auto& [block, call] : held_) calls.insert(call);
    return fmt::format("{} string{} from {}", held_.size(), held_.size() == 1 ? "" : "s", fmt::join(calls, ", "));
  }

  // IUnknown: one static instance, never deleted.
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override {
    if (!object) return E_POINTER;
    if (IsEqualIID(riid, IID_IUnknown) || IsEqualIID(riid, IID_IMallocSpy)) {
      *object = static_cast<IMallocSpy*>(this);
      return S_OK;
    }
    *object = nullptr;
    return E_NOINTERFACE;
  }
  ULONG STDMETHODCALLTYPE AddRef() override { return 2; }
  ULONG STDMETHODCALLTYPE Release() override { return 1; }

  void* STDMETHODCALLTYPE PreFree(void* request, BOOL) override {
    std::lock_guard lock(mutex_);
    held_.erase(request);
    return request;
  }
  SIZE_T STDMETHODCALLTYPE PreRealloc(void* request, SIZE_T size, void** new_request, BOOL) override {
    {
      std::lock_guard lock(mutex_);
      held_.erase(request);  // a caller that reallocates has taken the block over
    }
    *new_request = request;
    return size;
  }
  SIZE_T STDMETHODCALLTYPE PreAlloc(SIZE_T size) override { return size; }
  void* STDMETHODCALLTYPE PostAlloc(void* actual) override { return actual; }
  void STDMETHODCALLTYPE PostFree(BOOL) override {}
  void* STDMETHODCALLTYPE PostRealloc(void* actual, BOOL) override { return actual; }
  void* STDMETHODCALLTYPE PreGetSize(void* request, BOOL) override { return request; }
  SIZE_T STDMETHODCALLTYPE PostGetSize(SIZE_T actual, BOOL) override { return actual; }
  void* STDMETHODCALLTYPE PreDidAlloc(void* request, BOOL) override { return request; }
  int STDMETHODCALLTYPE PostDidAlloc(void*, BOOL, int actual) override { return actual; }
  void STDMETHODCALLTYPE PreHeapMinimize() override {}
  void STDMETHODCALLTYPE PostHeapMinimize() override {}

 private:
  std::mutex mutex_;
  std::unordered_map<void*, const char*> held_;
};

// Never destroyed: frees may arrive while the process ends.
Ledger& own_ledger() {
  static auto* ledger = new Ledger;
  return *ledger;
}
std::atomic<bool> own_spy_registered{false};

HMODULE this_module() {
  HMODULE module = nullptr;
  GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                     reinterpret_cast<LPCWSTR>(&this_module), &module);
  return module;
}

bool record_in_other_dll(void* block, const char* call) {
  for (const wchar_t* name : {L"computenetwork.dll", L"vmcompute.dll"}) {
    HMODULE module = GetModuleHandleW(name);
    if (!module || module == this_module()) continue;
    using Record = BOOL(WINAPI*)(void*, const char*);
    auto record =
        reinterpret_cast<Record>(reinterpret_cast<void*>(GetProcAddress(module, "WincniEmulatorRecordHandout")));
    if (record && record(block, call)) return true;
  }
  return false;
}

// Where `block` gets recorded: this DLL's spy, the other DLL's, or a spy
// registered now. A process whose spy slot holds someone else's counts nothing.
void record(void* block, const char* call) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    if (record_in_own_ledger(block, call) || record_in_other_dll(block, call)) return;
    const HRESULT registered = CoRegisterMallocSpy(&own_ledger());
    if (SUCCEEDED(registered)) {
      own_spy_registered = true;
      continue;
    }
    if (registered != CO_E_OBJISREG) return;
    Sleep(1);  // the other DLL is registering its spy right now
  }
}

}  // namespace

bool record_in_own_ledger(void* block, const char* call) {
  if (!own_spy_registered) return false;
  own_ledger().add(block, call);
  return true;
}

PWSTR hand_out(std::string_view utf8, const char* call) {
  PWSTR copy = win32::co_task_copy(utf8);
  record(copy, call);
  return copy;
}

void report_unfreed_handouts() {
  if (!own_spy_registered) return;
  const std::string unfreed = own_ledger().unfreed();
  if (unfreed.empty()) return;
  try {
    wchar_t program[MAX_PATH] = L"";
    GetModuleFileNameW(nullptr, program, MAX_PATH);
    const std::string state_dir = emulator::EmulatorConfig::from_environment().state_dir;
    emulator::append_line(state_dir + "/cotaskmem-leaks.log",
                          fmt::format("{} (pid {}): {} never freed with CoTaskMemFree", os::narrow(program),
                                      GetCurrentProcessId(), unfreed));
  } catch (...) {
    // Nowhere to say it: the process is ending.
  }
}

}  // namespace wincni::hns::emulator_dll

// Lets the other emulator DLL of the process record its handouts here.
extern "C" BOOL WINAPI WincniEmulatorRecordHandout(void* block, const char* call) {
  return wincni::hns::emulator_dll::record_in_own_ledger(block, call) ? TRUE : FALSE;
}
