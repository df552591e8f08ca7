// DescriptorSource and DescriptorSink on Windows: ReadFile and WriteFile on
// the C runtime descriptor's handle, not _read and _write, which translate
// line ends on a descriptor in text mode (the standard ones are, unless the
// program sets them otherwise).

#include <windows.h>

#include <io.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "wincni/os/byte_streams.hpp"
#include "wincni/os/win32_error_text.hpp"

// msvcrt's _get_osfhandle answers INVALID_HANDLE_VALUE for a descriptor that
// is not open; the UCRT's calls the invalid-parameter handler first, whose
// default ends the process. Built against the UCRT, this file would need a
// handler of its own around the call.
#ifdef _UCRT
#error "descriptors_win32.cpp relies on msvcrt's _get_osfhandle"
#endif

namespace wincni::os {

namespace {

HANDLE handle_of(int fd) { return reinterpret_cast<HANDLE>(_get_osfhandle(fd)); }

// What one call may ask for: ReadFile and WriteFile take a DWORD.
DWORD one_call_size(std::size_t size) {
  return static_cast<DWORD>(std::min<std::size_t>(size, std::numeric_limits<DWORD>::max()));
}

}  // namespace

std::size_t DescriptorSource::read(char* buffer, std::size_t size) {
  const HANDLE handle = handle_of(fd_);
  if (handle == INVALID_HANDLE_VALUE) throw std::runtime_error(win32_error_text(ERROR_INVALID_HANDLE));
  DWORD n = 0;
  if (ReadFile(handle, buffer, one_call_size(size), &n, nullptr)) return n;
  const DWORD error = GetLastError();
  // A message longer than the buffer (a message-mode pipe): this part now,
  // the rest at the next read.
  if (error == ERROR_MORE_DATA) return n;
  // The writer closed its end of the pipe: that is the end of the input.
  if (error == ERROR_BROKEN_PIPE || error == ERROR_HANDLE_EOF) return 0;
  throw std::runtime_error(win32_error_text(error));
}

bool DescriptorSink::write(std::string_view bytes) {
  const HANDLE handle = handle_of(fd_);
  if (handle == INVALID_HANDLE_VALUE) return false;
  while (!bytes.empty()) {
    DWORD n = 0;
    const bool written = WriteFile(handle, bytes.data(), one_call_size(bytes.size()), &n, nullptr);
    if (n == 0) return false;
    bytes.remove_prefix(n);  // also what a failed call still wrote: the next says why it stopped
    if (!written && bytes.empty()) return false;
  }
  return true;
}

}  // namespace wincni::os
