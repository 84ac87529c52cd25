/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exitmon's own exit statuses, one per way start-up can fail (exitmon(8)
 * EXIT STATUS); the ones every program shares are in log.h. */
#ifndef EXITMON_MON_EXIT_H
#define EXITMON_MON_EXIT_H

enum mon_exit_status {
	EXIT_NOPERM = 3,	/* no CAP_NET_ADMIN */
	EXIT_NAMESPACE = 4,	/* user or PID namespace other than the initial one */
	EXIT_DEAF = 5,		/* registered but no record arrives (network namespace) */
	EXIT_NOFAMILY = 6,	/* no TASKSTATS generic netlink family */
	EXIT_CPUMASK = 7,	/* cpu list not a subset of the possible CPUs */
	/* 8 is EXIT_OUTPUT (log.h) */
	EXIT_DAMAGED = 9,	/* --replay: the capture is damaged (the rest was read) */
};

#endif
