/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers as the sweep's tables print them: significant digits, a
 * difference or a percentage with its confidence interval. */
#ifndef EXITSWEEP_SWEEP_FMT_H
#define EXITSWEEP_SWEEP_FMT_H

#include <stdbool.h>
#include <stddef.h>

/* v with about `digits` significant digits, "-" for NAN. */
char *sweep_fmt_sig(char *buf, size_t len, double v, int digits);
/* "+3.28 ±2.91" and a trailing "~" when not significant; "n/a" when
 * !ok.  Returns buf. */
char *sweep_fmt_pct_ci(char *buf, size_t len, double est, double half, bool ok,
		       bool significant);
/* "+312 ±45" with "~" when not significant; "n/a" when !ok. */
char *sweep_fmt_diff(char *buf, size_t len, double est, double half, bool ok,
		     bool significant);

/* s as a terminal may show it: control characters (C0, DEL, C1 in
 * UTF-8) and backslashes as \xNN and \\, so that a string read from a
 * file can neither move the cursor nor forge a line.  Malloc'd (NULL:
 * out of memory). */
char *sweep_fmt_clean(const char *s);

#endif
