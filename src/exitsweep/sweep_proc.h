/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Child processes: find the programs, start them with redirections, wait
 * for them (interruptibly), describe how they ended. */
#ifndef EXITSWEEP_SWEEP_PROC_H
#define EXITSWEEP_SWEEP_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

/* NAME next to our own executable (/proc/self/exe), else in the SBINDIR
 * it was built for (make install puts exitmon there), else in PATH, into
 * out.  0 or -ENOENT. */
int sweep_proc_locate(const char *name, char *out, size_t len);
/* NAME in PATH only, into out.  0 or -ENOENT. */
int sweep_proc_in_path(const char *name, char *out, size_t len);
extern const char sweep_proc_sbindir[];	/* where make install puts exitmon */
/* Start argv[0] (a path) with stdout to out_path and stderr to err_path
 * (NULL: /dev/null for stdout, inherited stderr).  The child is registered
 * for signal forwarding and gets SIGTERM if exitsweep dies (as does that of
 * sweep_proc_capture).  pid, or -errno. */
pid_t sweep_proc_spawn(char *const argv[], const char *out_path, const char *err_path);
/* Wait for pid.  When interruptible, returns -EINTR as soon as a signal
 * (interrupt or alarm) arrives, leaving the child running.  0 on reap. */
int sweep_proc_wait(pid_t pid, int *status, struct rusage *ru, bool interruptible);
/* Reap without blocking: 1 reaped, 0 still running, -errno. */
int sweep_proc_poll(pid_t pid, int *status);
/* SIGTERM, wait up to grace seconds, then SIGKILL; always reaps. */
int sweep_proc_stop(pid_t pid, double grace, int *status);
/* Run argv and put the first line of its standard output in buf.
 * 0, or -errno / -ECHILD when it failed. */
int sweep_proc_capture(char *const argv[], char *buf, size_t len);
/* "exit status 3", "killed by signal 9 (Killed)". */
void sweep_proc_describe(int status, char *buf, size_t len);
/* The last non-empty line of a text file, or "" (for error messages). */
void sweep_proc_last_line(const char *path, char *buf, size_t len);
/* Sleep; a signal may cut it short. */
void sweep_proc_sleep(double seconds);

#endif
