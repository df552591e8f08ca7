/* peak-rss OUT_FILE PROGRAM [ARG...]: runs PROGRAM with this process's
 * stdin, stdout, stderr and environment, writes the peak resident set of
 * it and the children it waited for (KiB) to OUT_FILE, and exits with its
 * status. The benchmark cannot take the figure from its own wait4: Linux
 * counts the resident set the spawning process had before exec, and
 * Python's is larger than a plugin's. This launcher's is a few pages. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fputs("usage: peak-rss OUT_FILE PROGRAM [ARG...]\n", stderr);
    return 2;
  }
  pid_t child = fork();
  if (child < 0) return 126;
  if (child == 0) {
    execv(argv[2], &argv[2]);
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  if (wait4(child, &status, 0, &usage) < 0) return 126;
  FILE *out = fopen(argv[1], "w");
  if (out == NULL) return 126;
  fprintf(out, "%ld\n", usage.ru_maxrss);
  fclose(out);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
