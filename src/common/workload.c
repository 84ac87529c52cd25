// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsers and names of the workload vocabulary (see workload.h). */
#include "workload.h"

#include <errno.h>
#include <string.h>

#include "parse.h"

#define MAX_GROUP_THREADS 1024u
#define MAX_WORK_CPU_US (600ull * 1000000)	/* ten minutes */
#define MAX_WORK_BYTES (1ull << 40)

int workload_parse_shape(const char *s, enum spawn_shape *shape, unsigned *k)
{
	*k = 1;
	if (!strcmp(s, "thread"))
		*shape = SHAPE_THREAD;
	else if (!strcmp(s, "process"))
		*shape = SHAPE_PROCESS;
	else if (!strcmp(s, "fork"))
		*shape = SHAPE_FORK;
	else if (!strncmp(s, "group:", 6)) {
		*shape = SHAPE_GROUP;
		/* One thread would be a process: no tgid record. */
		return parse_u32(s + 6, 2, MAX_GROUP_THREADS, k);
	} else
		return -EINVAL;
	return 0;
}

const char *workload_shape_name(enum spawn_shape shape)
{
	static const char *const names[] = {
		[SHAPE_THREAD] = "thread", [SHAPE_PROCESS] = "process",
		[SHAPE_FORK] = "fork", [SHAPE_GROUP] = "group",
	};

	return names[shape];
}

static int parse_write(const char *arg, struct spawn_work *w)
{
	const char *colon = strchr(arg, ':');
	char num[32];
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);

	if (len >= sizeof(num))
		return -EINVAL;
	memcpy(num, arg, len);
	num[len] = '\0';
	if (colon && colon[1] == '\0')
		return -EINVAL;
	w->write_path = colon ? colon + 1 : NULL;
	return parse_size(num, 1, MAX_WORK_BYTES, &w->write_bytes);
}

int workload_parse_work(const char *s, struct spawn_work *w)
{
	uint64_t us;
	int r;

	if (!strncmp(s, "cpu:", 4)) {
		r = parse_u64(s + 4, 1, MAX_WORK_CPU_US, &us);
		if (r == 0)
			w->cpu_ns = us * 1000;
		return r;
	}
	if (!strncmp(s, "touch:", 6))
		return parse_size(s + 6, 1, MAX_WORK_BYTES, &w->touch_bytes);
	if (!strncmp(s, "write:", 6))
		return parse_write(s + 6, w);
	if (!strncmp(s, "sync:", 5)) {	/* write, then wait for the disk */
		w->write_sync = true;
		return parse_write(s + 5, w);
	}
	return -EINVAL;
}
