/* Proof that registration works: make one short-lived thread exit on a
 * registered CPU.  A listener outside the initial network namespace
 * registers without error and then hears nothing; only this catches it. */
#ifndef EXITMON_SELFCHECK_H
#define EXITMON_SELFCHECK_H

#include <sys/types.h>

#define SELFCHECK_COMM "exitmon-check"

/* Run a thread pinned to `cpu` that exits at once; returns its tid via
 * *tid after it has exited.  0 or -errno. */
int selfcheck_spawn(int cpu, pid_t *tid);

#endif
