// SPDX-License-Identifier: GPL-2.0-or-later
/* Argument vectors. */
#include "sweep_argv.h"

#include <stdio.h>

void sweep_argv_add(struct sweep_argv *b, const char *s)
{
	if (b->n < ARGV_MAX) {
		snprintf(b->buf[b->n], sizeof(b->buf[b->n]), "%s", s);
		b->a[b->n] = b->buf[b->n];
		b->a[++b->n] = NULL;
	}
}

/* An option and its value. */
void sweep_argv_opt(struct sweep_argv *b, const char *opt, const char *val)
{
	sweep_argv_add(b, opt);
	sweep_argv_add(b, val);
}

void sweep_argv_num(struct sweep_argv *b, const char *opt, long long val)
{
	char s[24];

	snprintf(s, sizeof(s), "%lld", val);
	sweep_argv_opt(b, opt, s);
}
