// SPDX-License-Identifier: GPL-2.0-or-later
/* Stats line, final line and summary file. */
#include "report.h"

#include <inttypes.h>
#include <stdio.h>
#include <sys/resource.h>

#include "kv.h"
#include "log.h"

void report_stats_line(const struct mon_counters *n, double seconds, double rate)
{
	log_warn("stats: %.1fs records=%" PRIu64 " pid=%" PRIu64 " tgid=%" PRIu64
		" matched=%" PRIu64 " filtered=%" PRIu64 " after_count=%" PRIu64
		" written=%" PRIu64 " unwritten=%" PRIu64
		" dropped=%" PRIu64 " enobufs=%" PRIu64 " truncated=%" PRIu64
		" malformed=%" PRIu64 " rate=%.0f/s",
		seconds, n->records, n->records_pid, n->records_tgid, n->matched,
		n->filtered, n->after_count, n->written, n->unwritten,
		n->dropped, n->enobufs, n->truncated, n->malformed, rate);
}

void report_final(const struct mon_counters *n, const struct run_info *ri)
{
	log_warn("done: %" PRIu64 " records (%" PRIu64 " pid, %" PRIu64
		" tgid): %" PRIu64 " matched, %" PRIu64 " filtered out, %"
		PRIu64 " after the count; %" PRIu64 " written in %.2fs; "
		"lost: %" PRIu64 " dropped, %" PRIu64 " ENOBUFS episodes, %"
		PRIu64 " truncated, %" PRIu64 " malformed, %" PRIu64 " unwritten",
		n->records, n->records_pid, n->records_tgid, n->matched,
		n->filtered, n->after_count, n->written, ri->seconds,
		n->dropped, n->enobufs, n->truncated, n->malformed,
		n->unwritten);
	if (n->implausible)
		log_warn("%" PRIu64 " records report a wait longer than the task "
			"lived, or a timestamp that is no time (the kernel's "
			"figure is wrong; written as sent)", n->implausible);
	if (n->other)
		log_warn("%" PRIu64 " messages were not exit records (another "
			"generic netlink command or family, or a netlink control "
			"message): passed over", n->other);
	if (n->trailing)
		log_warn("%" PRIu64 " datagrams had bytes after their last whole "
			"message: those bytes were passed over, the messages "
			"before them read", n->trailing);
	if (n->newer_struct)
		log_warn("%" PRIu64 " records carried fields newer than this "
			"exitmon knows (not written): a newer exitmon may know "
			"them", n->newer_struct);
	if (n->dropped || n->enobufs)
		log_warn("records were lost because the receive queue overflowed: "
			"raise --rcvbuf or lower --interval");
}

void report_fill_usage(struct run_info *ri)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return;
	ri->cpu_user = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	ri->cpu_sys = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	ri->max_rss_kb = ru.ru_maxrss;
}

int report_summary(const char *path, const struct mon_counters *n,
		   const struct run_info *ri)
{
	struct kvbuf kb;
	int r;

	kv_init(&kb);
#define SUMMARY_KEY(name, metric, help) kv_u64(&kb, #name, n->name);
	MON_COUNTERS(SUMMARY_KEY)
#undef SUMMARY_KEY
	kv_double(&kb, "seconds", ri->seconds);
	kv_double(&kb, MON_KEY_CPU_USER, ri->cpu_user);
	kv_double(&kb, MON_KEY_CPU_SYS, ri->cpu_sys);
	kv_double(&kb, "cpu_us_per_record", n->records ?
		  (ri->cpu_user + ri->cpu_sys) * 1e6 / (double)n->records : 0);
	kv_u64(&kb, "max_rss_kb", (uint64_t)ri->max_rss_kb);
	kv_u64(&kb, "rcvbuf", ri->rcvbuf);
	kv_u64(&kb, "interval_ms", ri->interval_ms);
	kv_str(&kb, "mode", ri->wakeup ? "wakeup" : "batch");
	kv_u64(&kb, MON_KEY_STRUCT_VERSION, ri->struct_version);
	kv_str(&kb, "cpus", ri->cpulist ? ri->cpulist : "");
	kv_u64(&kb, "shards", ri->shards);
	/* A store audits the run with these: its records are seq 1 ..
	 * last_seq less the unwritten ones (last_seq = written + unwritten). */
	kv_str(&kb, "run", ri->run ? ri->run : "");
	kv_u64(&kb, "last_seq", ri->last_seq);
	r = kv_write_atomic(path, &kb);
	kv_free(&kb);
	return r;
}
