/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exitmon's counters, defined once.  Each name is the key exitmon writes
 * in its --summary file (exitsweep reads those files: MON_KEY(name) gives
 * the key, and fails to compile for a name that is not a counter); the
 * metric is the Prometheus name without the exitmon_ prefix ("" when the
 * counter is not exported on its own).  Every record received is in
 * exactly one of matched, filtered and after_count.
 *
 *   X(name, metric, help) */
#ifndef COMMON_MON_COUNTERS_H
#define COMMON_MON_COUNTERS_H

#include <stdint.h>

#define MON_COUNTERS(X) \
	X(records, "", "Exit records received, pid and tgid.") \
	X(records_pid, "", "Pid records received.") \
	X(records_tgid, "", "Tgid records received.") \
	X(matched, "records_matched_total", "Records that passed the filters.") \
	X(filtered, "records_filtered_total", "Records the filters left out.") \
	X(after_count, "records_after_count_total", "Records that passed the filters after --count was reached: not written, exitmon was stopping.") \
	X(written, "records_written_total", "Records written to the output.") \
	X(unwritten, "records_unwritten_total", "Records received but not written (output failed).") \
	X(dropped, "records_dropped_total", "Records the kernel dropped because the receive queue was full.") \
	X(enobufs, "enobufs_episodes_total", "Receive-queue overflow episodes (ENOBUFS).") \
	X(truncated, "messages_truncated_total", "Messages larger than the receive slot.") \
	X(malformed, "messages_malformed_total", "Messages that failed the parser's checks.") \
	X(other, "", "Well-formed messages that are not exit records: another command or generic netlink family, or a netlink control message.") \
	X(trailing, "", "Datagrams (packets of a capture) with bytes after their last whole message: the messages before were read.") \
	X(implausible, "records_implausible_total", "Pid records that report a wait longer than the task lived, or a timestamp that is no time.") \
	X(newer_struct, "records_newer_struct_total", "Records with bytes past the newest struct taskstats layout exitmon knows (written without those fields).") \
	X(capture_errors, "", "Messages that could not be written to the capture file.") \
	X(self_exits, "", "Exits of exitmon's own threads (receive threads, self-check): counted, not written.")

struct mon_counters {
#define MON_COUNTER_FIELD(name, metric, help) uint64_t name;
	MON_COUNTERS(MON_COUNTER_FIELD)
#undef MON_COUNTER_FIELD
};

/* The summary key of counter `name`, checked at compile time. */
#define MON_KEY(name) \
	((void)sizeof(((struct mon_counters *)0)->name), #name)

/* Keys of the run, beside the counters (report.c writes them). */
#define MON_KEY_CPU_USER "cpu_user"	/* seconds of user CPU, exitmon's own */
#define MON_KEY_CPU_SYS "cpu_sys"	/* seconds of system CPU */
#define MON_KEY_STRUCT_VERSION "struct_version"	/* of the last record, 0 none */

#endif
