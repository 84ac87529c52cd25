// SPDX-License-Identifier: GPL-2.0-or-later
/* Write the seed corpus for fuzz_record: a few well-formed exit messages of
 * the shapes kernels send, plus the edge cases the parser must reject.
 * Usage: mkseeds DIR.  The files are committed under tests/fuzz/corpus/;
 * rerun `make fuzz-seeds` to regenerate. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/tsbuild.h"

static const char *dir;

static void save(const char *name, const void *p, size_t len)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "wb");
	if (!fp || fwrite(p, 1, len, fp) != len || fclose(fp) != 0) {
		perror(path);
		exit(1);
	}
}

static void save_msg(const char *name, struct tsb_msg *m)
{
	save(name, m->b, m->len);
}

int main(int argc, char **argv)
{
	static unsigned char st[TSB_MAX_STATS];
	struct tsb_msg m;
	struct nlmsghdr nh = { .nlmsg_len = NLMSG_HDRLEN + 4 };
	size_t nest;
	int32_t err = -EPERM;

	if (argc != 2) {
		fprintf(stderr, "usage: mkseeds DIR\n");
		return 2;
	}
	dir = argv[1];

	tsb_exit_msg(&m, 16, 4242, "worker", 0, 0);
	save_msg("v16-pid", &m);
	tsb_exit_msg(&m, 16, 4243, "thread-1", 4200, 0);
	save_msg("v16-pid-tgid-v0", &m);
	tsb_exit_msg(&m, 15, 4243, "v15", 4200, 0);
	save_msg("v15-pid-tgid-v0", &m);
	tsb_exit_msg(&m, 17, 4243, "v17", 4200, 17);
	save_msg("v17-pid-tgid", &m);
	tsb_exit_msg(&m, 8, 99, "old", 98, 8);
	save_msg("v8-pid-tgid", &m);
	tsb_exit_msg(&m, 1, 7, NULL, 0, 0);
	save_msg("v1-pid", &m);
	tsb_exit_msg(&m, 18, 7, "future", 0, 0);
	save_msg("v18-pid", &m);
	tsb_exit_msg(&m, 16, 66, "a\"b\\c,d\ne\x1b\xff\xc3", 0, 0);
	save_msg("v16-hostile-comm", &m);

	/* NULL padding inside and between nests. */
	tsb_begin(&m, 0x1c, TASKSTATS_CMD_NEW);
	tsb_attr(&m, TASKSTATS_TYPE_NULL, NULL, 0);
	nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_PID);
	tsb_attr(&m, TASKSTATS_TYPE_NULL, "xy", 2);
	tsb_u32(&m, TASKSTATS_TYPE_PID, 5);
	tsb_fill_stats(st, 432, 14, 14, "pad");
	tsb_attr(&m, TASKSTATS_TYPE_STATS, st, 432);
	tsb_nest_end(&m, nest);
	tsb_attr(&m, TASKSTATS_TYPE_NULL, NULL, 0);
	tsb_end(&m);
	save_msg("v14-null-padding", &m);

	/* A stats struct cut short: a prefix of v14. */
	tsb_begin(&m, 0x1c, TASKSTATS_CMD_NEW);
	tsb_fill_stats(st, 200, 14, 14, "short");
	tsb_aggr(&m, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, 8, st, 200);
	tsb_end(&m);
	save_msg("v14-short-stats", &m);

	/* Not exit records. */
	nh.nlmsg_type = NLMSG_ERROR;
	m.len = 0;
	tsb_put(&m, &nh, sizeof(nh));
	tsb_put(&m, &err, sizeof(err));
	save_msg("nlmsg-error", &m);
	nh.nlmsg_type = NLMSG_DONE;
	m.len = 0;
	tsb_put(&m, &nh, sizeof(nh));
	tsb_put(&m, &err, sizeof(err));
	save_msg("nlmsg-done", &m);
	return 0;
}
