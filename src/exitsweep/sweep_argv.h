/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Argument vectors of the programs a run starts (exitmon, exitgen,
 * exitprobe), built one argument at a time in fixed storage. */
#ifndef EXITSWEEP_SWEEP_ARGV_H
#define EXITSWEEP_SWEEP_ARGV_H

#include <limits.h>

#define ARGV_MAX 48
struct sweep_argv {
	char *a[ARGV_MAX + 1];
	char buf[ARGV_MAX][PATH_MAX];
	int n;
};

/* Append an argument; an option and its value; an option and a number.
 * Past ARGV_MAX arguments the rest are dropped (ours need far fewer). */
void sweep_argv_add(struct sweep_argv *b, const char *s);
void sweep_argv_opt(struct sweep_argv *b, const char *opt, const char *val);
void sweep_argv_num(struct sweep_argv *b, const char *opt, long long val);

#endif
