#include "win32_hcn_api.hpp"

#include <windows.h>
#include <computenetwork.h>

#include <new>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "system_library.hpp"
#include "utf16.hpp"
#include "wincni/hns/win32/co_task_string.hpp"
#include "wincni/hns/win32/hcs_calls.hpp"
#include "wincni/hns/win32/hns_call.hpp"
#include "wincni/hns/win32/win32_guid.hpp"

namespace wincni::hns::win32 {
namespace {

// Networks, endpoints and namespaces share one shape of Hcn* function (their
// handles are all void*), except HcnCreateEndpoint, which takes the network.
using EnumerateFn = decltype(&HcnEnumerateNetworks);
using CreateFn = decltype(&HcnCreateNetwork);
using CreateEndpointFn = decltype(&HcnCreateEndpoint);
using OpenFn = decltype(&HcnOpenNetwork);
using ModifyFn = decltype(&HcnModifyNetwork);
using QueryFn = decltype(&HcnQueryNetworkProperties);
using DeleteFn = decltype(&HcnDeleteNetwork);
using CloseFn = decltype(&HcnCloseNetwork);
using HnsCallFn = decltype(&HNSCall);
using HcsCreateFn = decltype(&HcsCreateComputeSystem);
using HcsOpenFn = decltype(&HcsOpenComputeSystem);
using HcsPropertiesFn = decltype(&HcsGetComputeSystemProperties);
using HcsModifyFn = decltype(&HcsModifyComputeSystem);
using HcsTerminateFn = decltype(&HcsTerminateComputeSystem);
using HcsCloseFn = decltype(&HcsCloseComputeSystem);
static_assert(std::is_same_v<CreateFn, decltype(&HcnCreateNamespace)>);
static_assert(std::is_same_v<OpenFn, decltype(&HcnOpenEndpoint)>);
static_assert(std::is_same_v<QueryFn, decltype(&HcnQueryEndpointProperties)>);
static_assert(std::is_same_v<CloseFn, decltype(&HcnCloseNamespace)>);

constexpr HResult kOutOfMemory = static_cast<HResult>(E_OUTOFMEMORY);

using Library = std::shared_ptr<const SystemLibrary>;

// With HNS's trailing blank after the text.
HcnReply failure(HResult code, std::string_view message) {
  return HcnReply{code, {}, error_record(code, std::string(message) + " ")};
}

// HNSCall has no error record; the envelope carries the reason instead.
HnsCallReply failed_call(HResult code, std::string_view message) {
  nlohmann::ordered_json envelope = {{"Success", false}, {"Error", std::string(message) + " "}};
  return HnsCallReply{code, envelope.dump()};
}

HcnReply to_reply(HRESULT result, const CoTaskString& output, const CoTaskString& error) {
  HcnReply reply;
  reply.hr = static_cast<HResult>(result);
  reply.output = output.utf8();
  reply.error_record = error.utf8();
  if (failed(reply.hr) && reply.error_record.empty()) reply.error_record = error_record(reply.hr);
  return reply;
}

// Runs one call; what goes wrong on our side of the boundary becomes a failed
// reply shaped like HNS's own, built by `fail(hresult, message)`.
template <typename Call, typename Fail>
auto guarded(Call&& call, Fail&& fail) -> decltype(call()) {
  try {
    return call();
  } catch (const EntryPointError& error) {
    return fail(error.code(), error.what());
  } catch (const Utf16Error& error) {
    return fail(hr::kInvalidArg, error.what());
  } catch (const std::bad_alloc&) {
    return fail(kOutOfMemory, "out of memory");
  }
}

template <typename Call>
HcnReply guarded(Call&& call) {
  return guarded(std::forward<Call>(call), failure);
}

// Closes a handle HCN just gave us unless it reaches the caller.
class HandleGuard {
 public:
  using Close = HRESULT(WINAPI*)(void*);
  HandleGuard(Close close, void* handle) : close_(close), handle_(handle) {}
  ~HandleGuard() {
    if (handle_) close_(handle_);
  }
  HandleGuard(const HandleGuard&) = delete;
  HandleGuard& operator=(const HandleGuard&) = delete;
  void* release() { return std::exchange(handle_, nullptr); }

 private:
  Close close_;
  void* handle_;
};

class Win32HcnApi final : public HcnApi {
 public:
  Win32HcnApi(Library hcn, Library hns) : hcn_(std::move(hcn)), hns_(std::move(hns)) {}

  HcnReply enumerate(HcnObject kind, std::string_view query) override {
    return guarded([&] {
      auto call = hcn_function<EnumerateFn>("Enumerate", kind, "s");
      std::wstring wide_query = widen(query);
      CoTaskString result, error;
      HRESULT hr = call(wide_query.c_str(), result.out(), error.out());
      return to_reply(hr, result, error);
    });
  }

  HcnReply create(HcnObject kind, HcnHandle network, const Guid& id, std::string_view settings,
                  HcnHandle* handle) override {
    return guarded([&] {
      if (!handle) return failure(hr::kInvalidArg, "create: no place for the handle");
      *handle = nullptr;
      auto close = hcn_function<CloseFn>("Close", kind);
      std::wstring wide_settings = widen(settings);
      GUID win32_id = to_win32(id);
      CoTaskString error;
      void* created = nullptr;
      HRESULT hr;
      if (kind == HcnObject::Endpoint) {
        auto call = hcn_function<CreateEndpointFn>("Create", kind);
        hr = call(network, win32_id, wide_settings.c_str(), &created, error.out());
      } else {
        auto call = hcn_function<CreateFn>("Create", kind);
        hr = call(win32_id, wide_settings.c_str(), &created, error.out());
      }
      HandleGuard guard(close, created);
      HcnReply reply = to_reply(hr, CoTaskString(), error);
      if (reply.ok()) *handle = guard.release();
      return reply;
    });
  }

  HcnReply open(HcnObject kind, const Guid& id, HcnHandle* handle) override {
    return guarded([&] {
      if (!handle) return failure(hr::kInvalidArg, "open: no place for the handle");
      *handle = nullptr;
      auto close = hcn_function<CloseFn>("Close", kind);
      auto call = hcn_function<OpenFn>("Open", kind);
      CoTaskString error;
      void* opened = nullptr;
      HRESULT hr = call(to_win32(id), &opened, error.out());
      HandleGuard guard(close, opened);
      HcnReply reply = to_reply(hr, CoTaskString(), error);
      if (reply.ok()) *handle = guard.release();
      return reply;
    });
  }

  HcnReply modify(HcnObject kind, HcnHandle handle, std::string_view settings) override {
    return guarded([&] {
      auto call = hcn_function<ModifyFn>("Modify", kind);
      std::wstring wide_settings = widen(settings);
      CoTaskString error;
      HRESULT hr = call(handle, wide_settings.c_str(), error.out());
      return to_reply(hr, CoTaskString(), error);
    });
  }

  HcnReply query_properties(HcnObject kind, HcnHandle handle, std::string_view query) override {
    return guarded([&] {
      auto call = hcn_function<QueryFn>("Query", kind, "Properties");
      std::wstring wide_query = widen(query);
      CoTaskString properties, error;
      HRESULT hr = call(handle, wide_query.c_str(), properties.out(), error.out());
      return to_reply(hr, properties, error);
    });
  }

  HcnReply remove(HcnObject kind, const Guid& id) override {
    return guarded([&] {
      auto call = hcn_function<DeleteFn>("Delete", kind);
      CoTaskString error;
      HRESULT hr = call(to_win32(id), error.out());
      return to_reply(hr, CoTaskString(), error);
    });
  }

  void close(HcnObject kind, HcnHandle handle) override {
    if (!handle) return;
    try {
      hcn_function<CloseFn>("Close", kind)(handle);
    } catch (const EntryPointError&) {
      // No DLL, so no handle from it either: nothing to release.
    }
  }

  HnsCallReply hns_call(std::string_view method, std::string_view path, std::string_view request) override {
    return guarded(
        [&] {
          auto call = hns_->function<HnsCallFn>("HNSCall");
          std::wstring wide_method = widen(method);
          std::wstring wide_path = widen(path);
          std::wstring wide_request = widen(request);
          CoTaskString response;
          HRESULT hr = call(wide_method.c_str(), wide_path.c_str(), wide_request.c_str(), response.out());
          HnsCallReply reply{static_cast<HResult>(hr), {}};
          if (succeeded(reply.hr)) reply.response = response.utf8();
          return reply;
        },
        failed_call);
  }

  HcnReply hcs_create(std::string_view id, std::string_view configuration, HcsHandle* system) override {
    return guarded([&] {
      if (!system) return failure(hr::kInvalidArg, "hcs_create: no place for the handle");
      *system = nullptr;
      auto close = hns_->function<HcsCloseFn>("HcsCloseComputeSystem");
      auto call = hns_->function<HcsCreateFn>("HcsCreateComputeSystem");
      std::wstring wide_id = widen(id);
      std::wstring wide_configuration = widen(configuration);
      CoTaskString result;
      void* created = nullptr;
      HRESULT hr = call(wide_id.c_str(), wide_configuration.c_str(), nullptr, &created, result.out());
      HandleGuard guard(close, created);
      HcnReply reply = to_reply(hr, CoTaskString(), result);
      if (reply.ok()) *system = guard.release();
      return reply;
    });
  }

  HcnReply hcs_open(std::string_view id, HcsHandle* system) override {
    return guarded([&] {
      if (!system) return failure(hr::kInvalidArg, "hcs_open: no place for the handle");
      *system = nullptr;
      auto close = hns_->function<HcsCloseFn>("HcsCloseComputeSystem");
      auto call = hns_->function<HcsOpenFn>("HcsOpenComputeSystem");
      std::wstring wide_id = widen(id);
      CoTaskString result;
      void* opened = nullptr;
      HRESULT hr = call(wide_id.c_str(), &opened, result.out());
      HandleGuard guard(close, opened);
      HcnReply reply = to_reply(hr, CoTaskString(), result);
      if (reply.ok()) *system = guard.release();
      return reply;
    });
  }

  HcnReply hcs_properties(HcsHandle system, std::string_view query) override {
    return guarded([&] {
      auto call = hns_->function<HcsPropertiesFn>("HcsGetComputeSystemProperties");
      std::wstring wide_query = widen(query);
      CoTaskString properties, result;
      HRESULT hr = call(system, wide_query.c_str(), properties.out(), result.out());
      return to_reply(hr, properties, result);
    });
  }

  HcnReply hcs_modify(HcsHandle system, std::string_view configuration) override {
    return guarded([&] {
      auto call = hns_->function<HcsModifyFn>("HcsModifyComputeSystem");
      std::wstring wide_configuration = widen(configuration);
      CoTaskString result;
      HRESULT hr = call(system, wide_configuration.c_str(), result.out());
      return to_reply(hr, CoTaskString(), result);
    });
  }

  HcnReply hcs_terminate(HcsHandle system) override {
    return guarded([&] {
      auto call = hns_->function<HcsTerminateFn>("HcsTerminateComputeSystem");
      CoTaskString result;
      HRESULT hr = call(system, L"", result.out());
      return to_reply(hr, CoTaskString(), result);
    });
  }

  void hcs_close(HcsHandle system) override {
    if (!system) return;
    try {
      hns_->function<HcsCloseFn>("HcsCloseComputeSystem")(system);
    } catch (const EntryPointError&) {
      // No DLL, so no handle from it either: nothing to release.
    }
  }

 private:
  // "HcnCreateNetwork", "HcnQueryEndpointProperties", ...
  template <typename Fn>
  Fn hcn_function(std::string_view verb, HcnObject kind, std::string_view suffix = {}) const {
    return hcn_->function<Fn>(fmt::format("Hcn{}{}{}", verb, object_name(kind), suffix));
  }

  Library hcn_;
  Library hns_;
};

}  // namespace

std::unique_ptr<HcnApi> make_win32_hcn_api() {
  // Loaded once per process, on first use, and kept: HCN handles outlive any
  // one HcnApi object.
  static const Library hcn = std::make_shared<const SystemLibrary>("computenetwork.dll");
  static const Library hns = std::make_shared<const SystemLibrary>("vmcompute.dll");
  return std::make_unique<Win32HcnApi>(hcn, hns);
}

std::unique_ptr<HcnApi> make_win32_hcn_api(const Win32Libraries& libraries) {
  return std::make_unique<Win32HcnApi>(std::make_shared<const SystemLibrary>(libraries.hcn),
                                       std::make_shared<const SystemLibrary>(libraries.hns));
}

}  // namespace wincni::hns::win32
