/* Child processes whose output the program reads (measurement workers, the TUI's `info`
 * child), and the standard descriptors those children and the program itself rely on. */
#ifndef ACCELSCOPE_SPAWN_H
#define ACCELSCOPE_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

/* Starts path with argv and envp (NULL: this environment). The child's stdout and stderr go
 * to one pipe whose read end, non-blocking and close-on-exec, is put in *fd; its stdin is
 * /dev/null. The child is killed when this process dies. Correct whichever of fds 0-2 are
 * closed here. The pid, or -1 and why. */
pid_t spawn_piped(const char *path, char *const argv[], char *const envp[], int *fd,
                  char *why, size_t n);

/* The same with the descriptor `in` (close-on-exec here) as the child's stdin instead of
 * /dev/null: the engine's command socket to a worker. */
pid_t spawn_piped_in(const char *path, char *const argv[], char *const envp[], int in, int *fd,
                     char *why, size_t n);

/* The same, and descriptor `keep` (above 2; -1: none) stays open in the child under its
 * number, whatever its close-on-exec flag here: the -t N workers' shared start barrier. */
pid_t spawn_piped_keep(const char *path, char *const argv[], char *const envp[], int in,
                       int keep, int *fd, char *why, size_t n);

/* First thing in main: opens /dev/null onto whichever of fds 0, 1 and 2 are closed (so no
 * file opened later becomes standard input, output or error by accident), and registers an
 * exit check of standard output: output that cannot be written (a full disk, /dev/full)
 * turns the exit status into 1 with "accelscope: write error on standard output: <why>". */
void spawn_stdio_init(void);
/* A writer has told the user why standard output failed: the exit check stays silent (the
 * status is still 1), so one failure gives one message. */
void spawn_stdout_reported(void);
/* 1 when the process started with standard output closed (spawn_stdio_init took it: what is
 * written there fails, and the command exits 1). */
int spawn_stdout_closed(void);

#endif
