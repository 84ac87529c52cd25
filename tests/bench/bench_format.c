// SPDX-License-Identifier: GPL-2.0-or-later
/* How much CPU the collector spends per record parsing and formatting:
 * parse a pid+tgid message (v16, as the development kernel sends), then
 * format each record, many times over, timed with the process CPU clock.
 *
 * Two record shapes: "typical" (values of the size a short-lived thread
 * has: small counts, microsecond times, 10-digit btime) and "worst" (every
 * field 20 digits).  Prints ns per record; the budget is 2000 ns per record
 * for everything the collector does, at 40k records/s. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "record.h"
#include "../unit/tsbuild.h"

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* A v16 message whose fields hold typical values for a thread that ran
 * for a few milliseconds. */
static size_t typical_msg(struct tsb_msg *m)
{
	static unsigned char st[560];
	static const struct { enum rec_field f; uint64_t v; } vals[] = {
		{ F_UID, 1000 }, { F_GID, 1000 }, { F_PID, 123457 },
		{ F_PPID, 123400 }, { F_BTIME, 1764664000 },
		{ F_BTIME64, 1764664000 }, { F_ETIME, 2875 }, { F_UTIME, 1204 },
		{ F_STIME, 611 }, { F_MINFLT, 37 }, { F_CPU_COUNT, 3 },
		{ F_CPU_DELAY_TOTAL, 81234 }, { F_CPU_RUN_REAL_TOTAL, 1815234 },
		{ F_CPU_RUN_VIRTUAL_TOTAL, 1815234 }, { F_NVCSW, 2 },
		{ F_NIVCSW, 1 }, { F_HIWATER_RSS, 3412 }, { F_HIWATER_VM, 12840 },
		{ F_READ_CHAR, 4096 }, { F_WRITE_CHAR, 137 }, { F_TGID, 123400 },
		{ F_TGETIME, 2875123 },
	};
	unsigned i;

	memset(st, 0, sizeof(st));
	st[0] = 16;
	memcpy(st + 80, "worker-17", 9);
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		tsb_store(st + tsb_fields[vals[i].f].off, vals[i].v,
			  tsb_fields[vals[i].f].size);
	tsb_begin(m, 0x1c, TASKSTATS_CMD_NEW);
	tsb_aggr(m, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, 123457, st, sizeof(st));
	st[0] = 0;
	tsb_aggr(m, TASKSTATS_TYPE_AGGR_TGID, TASKSTATS_TYPE_TGID, 123400, st, sizeof(st));
	return tsb_end(m);
}

static size_t worst_msg(struct tsb_msg *m)
{
	static unsigned char st[560];
	memset(st, 0xff, sizeof(st));
	st[0] = 16, st[1] = 0;
	memcpy(st + 80, "\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"", 16);
	tsb_begin(m, 0x1c, TASKSTATS_CMD_NEW);
	tsb_aggr(m, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, UINT32_MAX, st, sizeof(st));
	tsb_aggr(m, TASKSTATS_TYPE_AGGR_TGID, TASKSTATS_TYPE_TGID, UINT32_MAX, st, sizeof(st));
	return tsb_end(m);
}

static volatile size_t sink;

/* ns per record for format only, and for parse + format. */
static void bench(const char *shape, const struct tsb_msg *m, enum out_format f,
		  long iters)
{
	static char buf[FORMAT_MAX_LINE];
	struct exit_msg out;
	double t0, t1, t2;
	size_t total = 0, bytes = 0;
	long i;
	unsigned k;

	if (record_parse_nlmsg(m->b, m->len, &out) != 0) {
		fprintf(stderr, "bench: message does not parse\n");
		exit(1);
	}
	t0 = cpu_ns();
	for (i = 0; i < iters; i++)
		for (k = 0; k < out.n; k++)
			total += format_record(f, &out.rec[k], buf, sizeof(buf));
	t1 = cpu_ns();
	for (i = 0; i < iters; i++) {
		if (record_parse_nlmsg(m->b, m->len, &out) != 0)
			exit(1);
		for (k = 0; k < out.n; k++)
			bytes += format_record(f, &out.rec[k], buf, sizeof(buf));
	}
	t2 = cpu_ns();
	sink = total + bytes;
	printf("%-7s %-5s format %6.1f ns/record   parse+format %6.1f ns/record"
	       "   (%zu bytes/record)\n", shape, format_name(f),
	       (t1 - t0) / (iters * out.n), (t2 - t1) / (iters * out.n),
	       total / (size_t)(iters * out.n));
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 500000;
	static struct tsb_msg typical, worst;
	enum out_format f;

	typical_msg(&typical);
	worst_msg(&worst);
	for (f = FMT_TEXT; f <= FMT_JSONL; f++)
		bench("typical", &typical, f, iters);
	for (f = FMT_TEXT; f <= FMT_JSONL; f++)
		bench("worst", &worst, f, iters / 4);
	return 0;
}
