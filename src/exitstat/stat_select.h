/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which records exitstat looks at: exitmon's filters (command glob, user)
 * plus exit code, killed by a signal, and a window on exit time. */
#ifndef EXITSTAT_STAT_SELECT_H
#define EXITSTAT_STAT_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "filter.h"

struct select {
	struct filter f;
	bool by_exitcode, signalled;
	uint32_t exitcode;
	bool since_set, until_set;
	int64_t since, until;	/* seconds since the epoch */
};

/* r's exit time, seconds since the epoch (begin time + elapsed time);
 * false when the record carries no begin time. */
bool stat_select_exit_time(const struct exit_record *r, int64_t *t);
/* Judged on who (r itself, or the pid row of a tgid row's message). */
bool stat_select_match(const struct select *s, const struct exit_record *r,
		  const struct exit_record *who);
/* "@EPOCH", "EPOCH" or local "YYYY-MM-DD[ HH:MM[:SS]]": 0 or -EINVAL. */
int stat_select_parse_time(const char *s, int64_t *out);

#endif
