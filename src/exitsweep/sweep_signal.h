/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interrupts: the first SIGINT/SIGTERM/SIGHUP/SIGPIPE forwards SIGTERM to
 * the running children and sets sweep_signal_interrupted, so the main loop
 * unwinds (children reaped, delay accounting restored, signal re-raised);
 * a second one restores delay accounting at once and exits. */
#ifndef EXITSWEEP_SWEEP_SIGNAL_H
#define EXITSWEEP_SWEEP_SIGNAL_H

#include <signal.h>
#include <sys/types.h>

extern volatile sig_atomic_t sweep_signal_interrupted;	/* signal number or 0 */
extern volatile sig_atomic_t sweep_signal_alarm;	/* a SIGALRM arrived */

/* Handlers without SA_RESTART: a blocking wait returns EINTR. */
void sweep_signal_install(void);
void sweep_signal_child_add(pid_t pid);
void sweep_signal_child_remove(pid_t pid);
/* After cleanup: die of the signal that interrupted us (exit status
 * 128 + signal, as shells expect). */
_Noreturn void sweep_signal_reraise(void);

#endif
