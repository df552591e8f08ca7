/* peak-rss OUT_FILE PROGRAM [ARG...]: runs PROGRAM with this process's
 * stdin, stdout, stderr and environment, writes two figures in KiB to
 * OUT_FILE, a line each, and exits with its status:
 *
 * - the peak resident set of PROGRAM and of the children it waited for, as
 *   wait4 reports it. The benchmark cannot take it from its own wait4:
 *   Linux counts the resident set the spawning process had before exec,
 *   and Python's is larger than a plugin's. This launcher's is a few pages.
 * - the peak private memory of any one of those processes: its anonymous
 *   pages (heap, stacks, written data) as /proc/PID/smaps_rollup counts
 *   them. The resident set also counts the pages of the executable the
 *   process mapped, which stay in the page cache and are shared by every
 *   process running that executable; this figure is what each one costs on
 *   its own. Anonymous memory grows by page faults and shrinks only through
 *   a system call (munmap, brk, madvise) or at exit, so reading it at the
 *   entry of every system call and at the exit (ptrace stops) finds its
 *   peak. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static long anonymous_kib(pid_t pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
  FILE *rollup = fopen(path, "r");
  if (rollup == NULL) return 0;
  char line[256];
  long kib = 0;
  while (fgets(line, sizeof line, rollup) != NULL) {
    if (sscanf(line, "Anonymous: %ld kB", &kib) == 1) break;
  }
  fclose(rollup);
  return kib;
}

enum { kTracingRefused = 125 };

static int write_figures(const char *path, long peak_rss_kib, long private_kib) {
  FILE *out = fopen(path, "w");
  if (out == NULL) return -1;
  fprintf(out, "%ld\n%ld\n", peak_rss_kib, private_kib);
  fclose(out);
  return 0;
}

static int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

/* Where ptrace is not allowed (a container's seccomp profile): the program
 * runs untraced, and the private figure is -1, unknown. */
static int run_untraced(char **argv) {
  pid_t child = fork();
  if (child < 0) return 126;
  if (child == 0) {
    execv(argv[2], &argv[2]);
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  if (wait4(child, &status, 0, &usage) < 0 || write_figures(argv[1], usage.ru_maxrss, -1) != 0) return 126;
  return exit_code(status);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fputs("usage: peak-rss OUT_FILE PROGRAM [ARG...]\n", stderr);
    return 2;
  }
  pid_t child = fork();
  if (child < 0) return 126;
  if (child == 0) {
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) _exit(kTracingRefused);  // before anything ran
    raise(SIGSTOP);  // lets the launcher set its options before exec
    execv(argv[2], &argv[2]);
    _exit(127);
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) return 126;
  if (WIFEXITED(status) && WEXITSTATUS(status) == kTracingRefused) return run_untraced(argv);
  if (!WIFSTOPPED(status)) return 126;
  const long options = PTRACE_O_TRACEEXIT | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |
                       PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL;
  if (ptrace(PTRACE_SETOPTIONS, child, NULL, (void *)options) != 0) return 126;
  ptrace(PTRACE_SYSCALL, child, NULL, NULL);

  struct rusage usage;
  memset(&usage, 0, sizeof usage);
  int child_status = 0;
  long private_kib = 0;
  for (;;) {
    struct rusage reaped;
    const pid_t pid = wait4(-1, &status, __WALL, &reaped);
    if (pid < 0) break;  // every traced process is gone
    if (WIFEXITED(status) || WIFSIGNALED(status)) {
      if (pid == child) {
        child_status = status;
        usage = reaped;
      }
      continue;
    }
    if (!WIFSTOPPED(status)) continue;
    const int event = status >> 16;
    const int stop_signal = WSTOPSIG(status);
    int signal_to_deliver = 0;
    if (event == PTRACE_EVENT_EXIT || stop_signal == (SIGTRAP | 0x80)) {
      const long kib = anonymous_kib(pid);
      if (kib > private_kib) private_kib = kib;
    } else if (event == 0 && stop_signal != SIGSTOP && stop_signal != SIGTRAP) {
      // A real signal (SIGCHLD, a kill): it goes on. SIGSTOP starts every
      // new tracee and SIGTRAP follows each exec; those are ptrace's own.
      signal_to_deliver = stop_signal;
    }
    ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)signal_to_deliver);
  }

  if (write_figures(argv[1], usage.ru_maxrss, private_kib) != 0) return 126;
  return exit_code(child_status);
}
