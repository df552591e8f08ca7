#pragma once
// A plugin started with stdin, stdout or stderr closed.

namespace wincni::cni::platform {

// Opens the null device on each of the standard descriptors the process was
// started without, before anything else opens a file: the OS would hand
// their numbers to the next file opened (libuv's internal pipes, a lock
// file), and what is meant for stdout would be written there.
void open_missing_standard_descriptors();

}  // namespace wincni::cni::platform
