/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which records are written: --comm GLOB, --tgid N, --uid N.  A tgid
 * record is judged by the identity of its group's last task. */
#ifndef COMMON_FILTER_H
#define COMMON_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "record.h"

struct filter {
	const char *comm_glob;	/* NULL: any */
	bool by_tgid, by_uid;
	uint32_t tgid, uid;
};

/* r matches; its command and user are judged on who: r itself for a pid
 * record, the pid record of the same message for a tgid record (the
 * kernel sends a tgid record without comm or uid). */
bool filter_match(const struct filter *f, const struct exit_record *r,
		  const struct exit_record *who);
/* The same on views of the kernel's bytes (the collector's). */
bool filter_match_view(const struct filter *f, const struct exit_view *r,
		       const struct exit_view *who);
/* Is glob a pattern fnmatch() reads as written?  An unclosed '[' or a
 * trailing backslash is refused: it would silently match nothing. */
bool filter_glob_valid(const char *glob);

/* The value of a --comm option, as every program takes it: a glob
 * filter_glob_valid() accepts, else a usage error (exit 2) saying why. */
const char *filter_comm_opt(const char *arg);

#endif
