#pragma once
// The standard streams as a runtime may hand them over: closed, or a stdout
// whose reader has gone.

namespace wincni::os {

// Opens the null device on each of the standard descriptors the process was
// started without, before anything else opens a file: the OS would hand
// their numbers to the next file opened (libuv's internal pipes, a lock
// file), and what is meant for stdout would be written there.
void open_missing_standard_descriptors();

// A write to a pipe nobody reads fails (EPIPE) instead of killing the
// process with SIGPIPE, so that a plugin whose runtime has gone still ends
// on its own terms (an ADD whose result cannot be written is undone).
void survive_broken_pipes();

// Delegates' exits are waited for: SIGCHLD at its default action, whatever
// the runtime left it at (ignoring it, which exec passes on, makes the kernel
// reap children before their exit status can be read).
void keep_children_exit_statuses();

}  // namespace wincni::os
