/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel.task_delayacct: save the value at start, set it per run, and put
 * the original back -- at the end, on error (atexit) and on a signal. */
#ifndef EXITSWEEP_SWEEP_SYSCTL_H
#define EXITSWEEP_SWEEP_SYSCTL_H

#include <stdbool.h>

#define DELAYACCT_PATH "/proc/sys/kernel/task_delayacct"

/* For tests: use another file than DELAYACCT_PATH (call before save). */
void sweep_sysctl_set_path(const char *path);
const char *sweep_sysctl_path(void);

/* The value now (0 or 1 on real kernels): 0 or -errno. */
int sweep_sysctl_read(int *val);
/* 0 when the file can be opened for writing, else -errno (nothing is
 * written). */
int sweep_sysctl_check_writable(void);
/* Remember the current value as the one to restore, and restore it at
 * exit() from now on.  0 or -errno. */
int sweep_sysctl_save(void);
bool sweep_sysctl_saved(void);
int sweep_sysctl_original(void);
/* Write val (only when it differs from the value now).  0 or -errno. */
int sweep_sysctl_set(int val);
/* Put the saved value back if it was changed; 0, -errno.  Verifies by
 * reading it back (-EIO when the kernel kept another value). */
int sweep_sysctl_restore(void);
/* Async-signal-safe restore, for a signal handler about to _exit(). */
void sweep_sysctl_restore_from_signal(void);

#endif
