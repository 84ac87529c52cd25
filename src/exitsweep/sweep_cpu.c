// SPDX-License-Identifier: GPL-2.0-or-later
/* Machine CPU time and the kernel's tick rate. */
#include "sweep_cpu.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "parse.h"
#include "sweep_file.h"

enum { ST_USER, ST_NICE, ST_SYSTEM, ST_IDLE, ST_IOWAIT, ST_IRQ, ST_SOFTIRQ,
       ST_STEAL, ST_MIN = ST_STEAL + 1 };

/* guest and guest_nice are already inside user and nice; steal is time
 * the hypervisor gave to someone else, not ours. */
int sweep_cpu_parse_stat(const char *text, struct sweep_cpu_sample *s)
{
	uint64_t v[ST_MIN];
	const char *p = text;
	char *end;

	while (p && strncmp(p, "cpu ", 4)) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p)
		return -EBADMSG;
	p += 4;
	for (int i = 0; i < ST_MIN; i++) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			return -EBADMSG;
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno || (*end != ' ' && *end != '\n' && *end != '\0'))
			return -EBADMSG;
		p = end;
	}
	s->busy = v[ST_USER] + v[ST_NICE] + v[ST_SYSTEM] + v[ST_IRQ] + v[ST_SOFTIRQ];
	s->idle = v[ST_IDLE] + v[ST_IOWAIT];
	return 0;
}

int sweep_cpu_read(struct sweep_cpu_sample *s)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen("/proc/stat", "re");

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return sweep_cpu_parse_stat(buf, s);
}

double sweep_cpu_busy_s(const struct sweep_cpu_sample *a,
			const struct sweep_cpu_sample *b)
{
	long hz = sysconf(_SC_CLK_TCK);

	if (b->busy < a->busy || hz <= 0)
		return NAN;
	return (double)(b->busy - a->busy) / (double)hz;
}

long sweep_cpu_parse_config_hz(const char *text)
{
	const char *p = text;
	uint64_t hz;

	while (p) {
		if (!strncmp(p, "CONFIG_HZ=", 10)) {
			char num[16];
			size_t n = strcspn(p + 10, "\n");

			if (n >= sizeof(num))
				return 0;
			memcpy(num, p + 10, n);
			num[n] = '\0';
			return parse_u64(num, 1, 100000, &hz) < 0 ? 0 : (long)hz;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

static long hz_from(FILE *f)
{
	char *text;
	size_t len;
	long hz = 0;

	if (!f)
		return 0;
	if (sweep_file_slurp(f, &text, &len) == 0)
		hz = sweep_cpu_parse_config_hz(text);
	free(text);
	return hz;
}

long sweep_cpu_kernel_hz(char *how, size_t len)
{
	struct utsname u;
	char path[512];
	FILE *f;
	long hz = 0;

	if (uname(&u) == 0) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		f = fopen(path, "re");
		hz = hz_from(f);
		if (f)
			fclose(f);
		if (hz) {
			snprintf(how, len, "CONFIG_HZ from %s", path);
			return hz;
		}
	}
	if (access("/proc/config.gz", R_OK) == 0 &&
	    (f = popen("exec gzip -dc /proc/config.gz 2>/dev/null", "re"))) {
		hz = hz_from(f);
		pclose(f);
		if (hz) {
			snprintf(how, len, "CONFIG_HZ from /proc/config.gz");
			return hz;
		}
	}
	hz = sysconf(_SC_CLK_TCK);
	snprintf(how, len, "USER_HZ: the kernel's CONFIG_HZ is unknown, and is "
		 "never below it");
	return hz > 0 ? hz : 100;
}
