// SPDX-License-Identifier: GPL-2.0-or-later
/* Numbers as the sweep's tables print them. */
#include "sweep_fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *sweep_fmt_sig(char *buf, size_t len, double v, int digits)
{
	int dec;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	/* Past 15 digits a double's decimals are noise: its digits, then
	 * the exponent. */
	if (fabs(v) >= 1e15) {
		snprintf(buf, len, "%.*g", digits, v);
		return buf;
	}
	dec = v == 0 ? 0 : digits - 1 - (int)floor(log10(fabs(v)));
	if (dec < 0)
		dec = 0;
	if (dec > 6)
		dec = 6;
	snprintf(buf, len, "%.*f", dec, v);
	return buf;
}

char *sweep_fmt_pct_ci(char *buf, size_t len, double est, double half, bool ok,
		       bool significant)
{
	int dec;

	if (!ok || isnan(est)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	/* two decimals, one from 100 up, more when the interval is narrower
	 * than 0.1 so that its width still shows (up to four) */
	if (fmax(fabs(est), half) >= 100)
		dec = 1;
	else if (half > 0 && half < 0.1)
		dec = (int)fmin(4, fmax(2, ceil(-log10(half)) + 1));
	else
		dec = 2;
	snprintf(buf, len, "%+.*f ±%.*f%s", dec, est, dec, half,
		 significant ? " " : "~");
	return buf;
}

char *sweep_fmt_diff(char *buf, size_t len, double est, double half, bool ok,
		     bool significant)
{
	char e[32], h[32];

	if (!ok || isnan(est)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	sweep_fmt_sig(e, sizeof(e), fabs(est), 3);
	sweep_fmt_sig(h, sizeof(h), half, 2);
	snprintf(buf, len, "%s%s ±%s%s", est < 0 ? "-" : "+", e, h,
		 significant ? " " : "~");
	return buf;
}

/* Bytes to escape at p: 1 (a C0 control, DEL, a backslash), 2 (a C1
 * control, U+0080 to U+009F as UTF-8), 0 (none). */
static size_t control_at(const unsigned char *p)
{
	if (*p < 0x20 || *p == 0x7f || *p == '\\')
		return 1;
	if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
		return 2;
	return 0;
}

char *sweep_fmt_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	char *out = malloc(n * 4 + 1), *o = out;	/* \xNN: 4 a byte */

	if (!out)
		return NULL;
	while (*p) {
		size_t c = control_at(p);

		if (!c) {
			*o++ = (char)*p++;
			continue;
		}
		if (*p == '\\')
			o += sprintf(o, "\\\\");
		else
			for (size_t i = 0; i < c; i++)
				o += sprintf(o, "\\x%02x", p[i]);
		p += c;
	}
	*o = '\0';
	return out;
}
