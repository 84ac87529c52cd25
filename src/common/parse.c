// SPDX-License-Identifier: GPL-2.0-or-later
/* One checked parser for every number that comes from a user. */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* strtoull accepts leading blanks and a minus sign; we accept neither. */
static int starts_like_unsigned(const char *s)
{
	return s && isdigit((unsigned char)s[0]);
}

static int parse_u64_prefix(const char *s, uint64_t *out, const char **end)
{
	char *e;
	unsigned long long v;

	if (!starts_like_unsigned(s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &e, 10);
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	*end = e;
	return 0;
}

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int r = parse_u64_prefix(s, &v, &end);

	if (r < 0)
		return r;
	if (*end != '\0')
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	int r = parse_u64(s, min, max, &v);

	if (r == 0)
		*out = (uint32_t)v;
	return r;
}

static int size_shift(const char *suffix, unsigned *shift)
{
	static const char units[] = "KMGT";
	const char *u;

	if (*suffix == '\0') {
		*shift = 0;
		return 0;
	}
	u = strchr(units, toupper((unsigned char)*suffix));
	if (!u || *u == '\0')
		return -EINVAL;
	*shift = 10u * (unsigned)(u - units + 1);
	suffix++;
	if (strcmp(suffix, "") && strcmp(suffix, "B") && strcmp(suffix, "iB"))
		return -EINVAL;
	return 0;
}

int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *end;
	unsigned shift;
	uint64_t v;
	int r = parse_u64_prefix(s, &v, &end);

	if (r < 0)
		return r;
	if (size_shift(end, &shift) < 0)
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	v <<= shift;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	char *e;
	double v;

	if (!s || !(isdigit((unsigned char)s[0]) || s[0] == '.' || s[0] == '-'))
		return -EINVAL;
	if (strpbrk(s, "xXpP"))		/* strtod would take hex floats */
		return -EINVAL;
	errno = 0;
	v = strtod(s, &e);
	if (e == s || *e != '\0' || !isfinite(v))
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}
