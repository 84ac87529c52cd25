/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The signals that ask a program to stop: every signal whose default action
 * ends the process, less those the kernel raises for a fault.  exitgen and
 * exitprobe wait for (or pass on) exactly this set, so that none of them
 * can end a run without its report. */
#ifndef COMMON_STOPSIG_H
#define COMMON_STOPSIG_H

#include <signal.h>

/* SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,
 * SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR and the
 * real-time signals.  Left out: the fault signals (SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGABRT: a handler on them would loop
 * on a real fault), those whose default is to do nothing or to stop the
 * job (SIGCHLD, SIGCONT, SIGURG, SIGWINCH, SIGTSTP, SIGTTIN, SIGTTOU),
 * SIGKILL and SIGSTOP, which nothing can catch, and any that is ignored
 * now (nohup(1)'s SIGHUP, a shell's SIGQUIT for a background job), but
 * SIGINT and SIGTERM: those two always ask to stop.  Call it before
 * changing any disposition. */
void stopsig_fill(sigset_t *set);

#endif
