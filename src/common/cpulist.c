// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsing and printing of kernel CPU lists. */
#include "cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BITS_PER_WORD (8 * sizeof(unsigned long))

bool cpulist_test(const struct cpuset_bits *set, unsigned cpu)
{
	return cpu < CPULIST_MAX &&
	       (set->bits[cpu / BITS_PER_WORD] >> (cpu % BITS_PER_WORD)) & 1;
}

void cpulist_set(struct cpuset_bits *set, unsigned cpu)
{
	if (cpu < CPULIST_MAX)
		set->bits[cpu / BITS_PER_WORD] |= 1ul << (cpu % BITS_PER_WORD);
}

unsigned cpulist_count(const struct cpuset_bits *set)
{
	unsigned i, n = 0;

	for (i = 0; i < sizeof(set->bits) / sizeof(set->bits[0]); i++)
		n += (unsigned)__builtin_popcountl(set->bits[i]);
	return n;
}

bool cpulist_subset(const struct cpuset_bits *sub, const struct cpuset_bits *of)
{
	unsigned i;

	for (i = 0; i < sizeof(sub->bits) / sizeof(sub->bits[0]); i++)
		if (sub->bits[i] & ~of->bits[i])
			return false;
	return true;
}

int cpulist_next(const struct cpuset_bits *set, unsigned from)
{
	unsigned cpu;

	for (cpu = from; cpu < CPULIST_MAX; cpu++)
		if (cpulist_test(set, cpu))
			return (int)cpu;
	return -1;
}

static int parse_cpu(const char **s, unsigned *cpu)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)**s))
		return -EINVAL;
	errno = 0;
	v = strtoul(*s, &end, 10);
	if (errno || v >= CPULIST_MAX)
		return -ERANGE;
	*cpu = (unsigned)v;
	*s = end;
	return 0;
}

int cpulist_parse(const char *s, struct cpuset_bits *out)
{
	memset(out, 0, sizeof(*out));
	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		unsigned lo, hi, c;
		int r = parse_cpu(&s, &lo);

		if (r < 0)
			return r;
		hi = lo;
		if (*s == '-') {
			s++;
			if ((r = parse_cpu(&s, &hi)) < 0)
				return r;
			if (hi < lo)
				return -EINVAL;
		}
		for (c = lo; c <= hi; c++)
			cpulist_set(out, c);
		if (*s == '\0' || *s == '\n')
			return s[0] == '\n' && s[1] != '\0' ? -EINVAL : 0;
		if (*s++ != ',')
			return -EINVAL;
	}
}

size_t cpulist_format(const struct cpuset_bits *set, char *buf, size_t cap)
{
	size_t len = 0;
	int lo = cpulist_next(set, 0);

	if (cap)
		buf[0] = '\0';
	while (lo >= 0) {
		int hi = lo;
		int n;

		while (hi + 1 < CPULIST_MAX && cpulist_test(set, (unsigned)hi + 1))
			hi++;
		n = hi > lo ? snprintf(len < cap ? buf + len : NULL,
				       len < cap ? cap - len : 0, "%s%d-%d",
				       len ? "," : "", lo, hi)
			    : snprintf(len < cap ? buf + len : NULL,
				       len < cap ? cap - len : 0, "%s%d",
				       len ? "," : "", lo);
		len += (size_t)n;
		lo = cpulist_next(set, (unsigned)hi + 1);
	}
	return len;
}

int cpulist_read_file(const char *path, struct cpuset_bits *out)
{
	char line[4096];
	FILE *f = fopen(path, "re");
	int r;

	if (!f)
		return -errno;
	r = fgets(line, sizeof(line), f) ? cpulist_parse(line, out) : -EIO;
	fclose(f);
	return r;
}
