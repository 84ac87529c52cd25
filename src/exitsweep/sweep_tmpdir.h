/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep's scratch directory, $TMPDIR/exitsweep.XXXXXX (mode 0700):
 * the runs' summaries and pid files, gnuplot's data and picture.  Removed
 * at exit and after an interrupt by exitsweep; when exitsweep dies without
 * a chance to (SIGKILL, a third interrupt), by a small watcher process that
 * outlives it, waiting on a pipe only exitsweep holds open. */
#ifndef EXITSWEEP_SWEEP_TMPDIR_H
#define EXITSWEEP_SWEEP_TMPDIR_H

/* Make the directory and start its watcher.  Its path, or NULL with errno
 * set.  sweep_tmpdir_remove is registered with atexit. */
const char *sweep_tmpdir_make(void);
/* Remove its files and itself (again: nothing). */
void sweep_tmpdir_remove(void);

#endif
