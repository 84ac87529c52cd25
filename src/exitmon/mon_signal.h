/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The signals exitmon answers, as flags the handler sets: start-up's
 * self-check, the run loop and the replay read them. */
#ifndef EXITMON_MON_SIGNAL_H
#define EXITMON_MON_SIGNAL_H

#include <signal.h>

/* SIGINT/SIGTERM (and the loop itself at --duration or --count): stop. */
extern volatile sig_atomic_t mon_signal_stop;
/* SIGHUP: reopen the output (after rotation). */
extern volatile sig_atomic_t mon_signal_reopen;
/* SIGUSR1: print the counters. */
extern volatile sig_atomic_t mon_signal_stats;

void mon_signal_install(void);

#endif
