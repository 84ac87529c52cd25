/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU lists as the kernel writes them ("0-3,8") and taskstats wants them. */
#ifndef COMMON_CPULIST_H
#define COMMON_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

#define CPULIST_MAX 8192

struct cpuset_bits {
	unsigned long bits[CPULIST_MAX / (8 * sizeof(unsigned long))];
};

/* Parse "0-3,8"; -EINVAL for syntax, -ERANGE for a CPU >= CPULIST_MAX. */
int cpulist_parse(const char *s, struct cpuset_bits *out);
/* Canonical list form ("0-3,8"), snprintf semantics. */
size_t cpulist_format(const struct cpuset_bits *set, char *buf, size_t cap);
/* Read a kernel cpulist file such as /sys/devices/system/cpu/possible. */
int cpulist_read_file(const char *path, struct cpuset_bits *out);

bool cpulist_test(const struct cpuset_bits *set, unsigned cpu);
void cpulist_set(struct cpuset_bits *set, unsigned cpu);
unsigned cpulist_count(const struct cpuset_bits *set);
bool cpulist_subset(const struct cpuset_bits *sub, const struct cpuset_bits *of);
/* First CPU in the set at or after `from`, or -1. */
int cpulist_next(const struct cpuset_bits *set, unsigned from);

#endif
