/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record columns, one table for every writer and reader: the CSV header,
 * the JSON keys, the text layout and the readers that turn CSV and JSON
 * lines back into records are all generated from COLUMNS below, so the
 * names can never disagree and a field the parser knows cannot be left
 * unwritten (tests/unit/test_format.c checks that every rec_field is
 * covered by exactly one column).
 *
 * First the record's key and time, which are not the kernel's: the run of
 * the collector that wrote it, its place in that run and when it was
 * received (struct rec_meta; first because (run, seq) is what a store
 * deduplicates on).  Then groups, and struct taskstats order within each
 * group: identity, times,
 * faults, CPU run times, delays (count and total per kind, then the peaks,
 * then when each longest wait happened, as version 17 lays them out),
 * context switches, memory,
 * I/O, version.  Units are in the names. */
#ifndef COMMON_COLUMNS_H
#define COMMON_COLUMNS_H

#include "rec_field.h"

enum col_kind {
	C_FIELD,	/* a struct taskstats field as it is */
	C_TYPE,		/* "pid" or "tgid" */
	C_PID,		/* pid attribute of a pid record; ac_pid of a tgid record */
	C_TGID,		/* tgid attribute of a tgid record; ac_tgid of a pid record */
	C_COMM,		/* untrusted bytes */
	C_NICE,		/* signed, sent in an unsigned byte */
	C_BTIME,	/* 64-bit begin time when sent, else the 32-bit one */
	C_VERSION,	/* struct version as sent */
	C_RUN,		/* the collector run's id: 32 lowercase hex digits */
	C_SEQ,		/* the record's number in its run: 1, 2, 3 ... */
	C_TIME,		/* when it was received: ns since the epoch */
};

/* X(name, kind, field, width in the text format: 0 = not shown; comm is
 * always shown, last).  field is used by C_FIELD and C_NICE only. */
#define COLUMNS(X) \
	X(run, C_RUN, 0, 0) \
	X(seq, C_SEQ, 0, 0) \
	X(time_ns, C_TIME, 0, 0) \
	X(type, C_TYPE, 0, 4) \
	X(pid, C_PID, 0, 7) \
	X(tgid, C_TGID, 0, 7) \
	X(ppid, C_FIELD, F_PPID, 7) \
	X(comm, C_COMM, 0, 0) \
	X(uid, C_FIELD, F_UID, 6) \
	X(gid, C_FIELD, F_GID, 0) \
	X(exitcode, C_FIELD, F_EXITCODE, 8) \
	X(flags, C_FIELD, F_FLAG, 0) \
	X(nice, C_NICE, F_NICE, 0) \
	X(sched, C_FIELD, F_SCHED, 0) \
	X(btime, C_BTIME, 0, 0) \
	X(exe_dev, C_FIELD, F_EXE_DEV, 0) \
	X(exe_inode, C_FIELD, F_EXE_INODE, 0) \
	X(elapsed_us, C_FIELD, F_ETIME, 11) \
	X(utime_us, C_FIELD, F_UTIME, 10) \
	X(stime_us, C_FIELD, F_STIME, 10) \
	X(utimescaled_us, C_FIELD, F_UTIMESCALED, 0) \
	X(stimescaled_us, C_FIELD, F_STIMESCALED, 0) \
	X(tgetime_us, C_FIELD, F_TGETIME, 0) \
	X(minflt, C_FIELD, F_MINFLT, 0) \
	X(majflt, C_FIELD, F_MAJFLT, 0) \
	X(cpu_run_real_ns, C_FIELD, F_CPU_RUN_REAL_TOTAL, 0) \
	X(cpu_run_virtual_ns, C_FIELD, F_CPU_RUN_VIRTUAL_TOTAL, 0) \
	X(cpu_scaled_run_real_ns, C_FIELD, F_CPU_SCALED_RUN_REAL_TOTAL, 0) \
	X(cpu_count, C_FIELD, F_CPU_COUNT, 0) \
	X(cpu_delay_ns, C_FIELD, F_CPU_DELAY_TOTAL, 12) \
	X(blkio_count, C_FIELD, F_BLKIO_COUNT, 0) \
	X(blkio_delay_ns, C_FIELD, F_BLKIO_DELAY_TOTAL, 14) \
	X(swapin_count, C_FIELD, F_SWAPIN_COUNT, 0) \
	X(swapin_delay_ns, C_FIELD, F_SWAPIN_DELAY_TOTAL, 0) \
	X(freepages_count, C_FIELD, F_FREEPAGES_COUNT, 0) \
	X(freepages_delay_ns, C_FIELD, F_FREEPAGES_DELAY_TOTAL, 0) \
	X(thrashing_count, C_FIELD, F_THRASHING_COUNT, 0) \
	X(thrashing_delay_ns, C_FIELD, F_THRASHING_DELAY_TOTAL, 0) \
	X(compact_count, C_FIELD, F_COMPACT_COUNT, 0) \
	X(compact_delay_ns, C_FIELD, F_COMPACT_DELAY_TOTAL, 0) \
	X(wpcopy_count, C_FIELD, F_WPCOPY_COUNT, 0) \
	X(wpcopy_delay_ns, C_FIELD, F_WPCOPY_DELAY_TOTAL, 0) \
	X(irq_count, C_FIELD, F_IRQ_COUNT, 0) \
	X(irq_delay_ns, C_FIELD, F_IRQ_DELAY_TOTAL, 0) \
	X(cpu_delay_max_ns, C_FIELD, F_CPU_DELAY_MAX, 0) \
	X(cpu_delay_min_ns, C_FIELD, F_CPU_DELAY_MIN, 0) \
	X(blkio_delay_max_ns, C_FIELD, F_BLKIO_DELAY_MAX, 0) \
	X(blkio_delay_min_ns, C_FIELD, F_BLKIO_DELAY_MIN, 0) \
	X(swapin_delay_max_ns, C_FIELD, F_SWAPIN_DELAY_MAX, 0) \
	X(swapin_delay_min_ns, C_FIELD, F_SWAPIN_DELAY_MIN, 0) \
	X(freepages_delay_max_ns, C_FIELD, F_FREEPAGES_DELAY_MAX, 0) \
	X(freepages_delay_min_ns, C_FIELD, F_FREEPAGES_DELAY_MIN, 0) \
	X(thrashing_delay_max_ns, C_FIELD, F_THRASHING_DELAY_MAX, 0) \
	X(thrashing_delay_min_ns, C_FIELD, F_THRASHING_DELAY_MIN, 0) \
	X(compact_delay_max_ns, C_FIELD, F_COMPACT_DELAY_MAX, 0) \
	X(compact_delay_min_ns, C_FIELD, F_COMPACT_DELAY_MIN, 0) \
	X(wpcopy_delay_max_ns, C_FIELD, F_WPCOPY_DELAY_MAX, 0) \
	X(wpcopy_delay_min_ns, C_FIELD, F_WPCOPY_DELAY_MIN, 0) \
	X(irq_delay_max_ns, C_FIELD, F_IRQ_DELAY_MAX, 0) \
	X(irq_delay_min_ns, C_FIELD, F_IRQ_DELAY_MIN, 0) \
	X(cpu_delay_max_ts_ns, C_FIELD, F_CPU_DELAY_MAX_TS, 0) \
	X(blkio_delay_max_ts_ns, C_FIELD, F_BLKIO_DELAY_MAX_TS, 0) \
	X(swapin_delay_max_ts_ns, C_FIELD, F_SWAPIN_DELAY_MAX_TS, 0) \
	X(freepages_delay_max_ts_ns, C_FIELD, F_FREEPAGES_DELAY_MAX_TS, 0) \
	X(thrashing_delay_max_ts_ns, C_FIELD, F_THRASHING_DELAY_MAX_TS, 0) \
	X(compact_delay_max_ts_ns, C_FIELD, F_COMPACT_DELAY_MAX_TS, 0) \
	X(wpcopy_delay_max_ts_ns, C_FIELD, F_WPCOPY_DELAY_MAX_TS, 0) \
	X(irq_delay_max_ts_ns, C_FIELD, F_IRQ_DELAY_MAX_TS, 0) \
	X(nvcsw, C_FIELD, F_NVCSW, 0) \
	X(nivcsw, C_FIELD, F_NIVCSW, 0) \
	X(coremem_mb_us, C_FIELD, F_COREMEM, 0) \
	X(virtmem_mb_us, C_FIELD, F_VIRTMEM, 0) \
	X(hiwater_rss_kb, C_FIELD, F_HIWATER_RSS, 0) \
	X(hiwater_vm_kb, C_FIELD, F_HIWATER_VM, 0) \
	X(read_char, C_FIELD, F_READ_CHAR, 0) \
	X(write_char, C_FIELD, F_WRITE_CHAR, 0) \
	X(read_syscalls, C_FIELD, F_READ_SYSCALLS, 0) \
	X(write_syscalls, C_FIELD, F_WRITE_SYSCALLS, 0) \
	X(read_bytes, C_FIELD, F_READ_BYTES, 0) \
	X(write_bytes, C_FIELD, F_WRITE_BYTES, 0) \
	X(cancelled_write_bytes, C_FIELD, F_CANCELLED_WRITE_BYTES, 0) \
	X(version, C_VERSION, 0, 0)

/* The record fields a column is made from (at most two: btime writes the
 * 64-bit begin time when the kernel sent it, else the 32-bit one).
 * Returns how many were stored in out. */
static inline unsigned col_fields(enum col_kind kind, unsigned field,
				  enum rec_field out[2])
{
	switch (kind) {
	case C_FIELD: case C_NICE: out[0] = (enum rec_field)field; return 1;
	case C_PID: out[0] = F_PID; return 1;
	case C_TGID: out[0] = F_TGID; return 1;
	case C_BTIME: out[0] = F_BTIME64; out[1] = F_BTIME; return 2;
	default: return 0;
	}
}

/* How many columns, and each one's index in the table: COL_pid, COL_comm,
 * ... (the CSV column order and the JSON key order). */
#define COL_COUNT_ONE(nm, kind, field, tw) + 1
#define NCOLS (0 COLUMNS(COL_COUNT_ONE))
#define COL_INDEX(nm, kind, field, tw) COL_##nm,
enum { COLUMNS(COL_INDEX) COL__COUNT };

#endif
