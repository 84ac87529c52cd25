/* SPDX-License-Identifier: GPL-2.0-or-later */
/* struct taskstats as the kernel lays it out, for the two files that read
 * its bytes: the parser (record.c) and the writers that format straight
 * from them (format.c).
 *
 * struct taskstats grows by appending, with two exceptions: version 1 had a
 * shorter header (padding instead of exit code and flags), and version 15
 * inserted the *_delay_max/_min pairs after each delay total (version 16 moved
 * them to the end).  We describe both layouts with our own structs.
 *
 * The layouts are mainline's include/uapi/linux/taskstats.h (version 17:
 * Linux 7.0, checked against the BTF of Debian's 7.3 kernel by `make
 * test-kernels`), never a patch posted to a list. */
#ifndef COMMON_TSABI_H
#define COMMON_TSABI_H

#include <stddef.h>
#include <stdint.h>

#include "rec_field.h"

/* The basic and extended accounting fields, alike in both layouts below
 * (only where they start differs). */
#define TS_ABI_ACCOUNTING \
	char comm[TS_COMM_LEN]; \
	uint8_t sched __attribute__((aligned(8))); \
	uint8_t pad[3]; \
	uint32_t uid __attribute__((aligned(8))); \
	uint32_t gid, pid, ppid, btime; \
	uint64_t etime __attribute__((aligned(8))); \
	uint64_t utime, stime, minflt, majflt; \
	uint64_t coremem, virtmem, hiwater_rss, hiwater_vm; \
	uint64_t read_char, write_char, read_syscalls, write_syscalls; \
	uint64_t read_bytes, write_bytes, cancelled_write_bytes; \
	uint64_t nvcsw, nivcsw; \
	uint64_t utimescaled, stimescaled, cpu_scaled_run_real_total; \
	uint64_t freepages_count, freepages_delay_total;

/* struct __kernel_timespec: 64-bit seconds and nanoseconds. */
struct ts_timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};

/* Append-only layout: versions 2..14 are prefixes, 16 and later too. */
struct ts_abi {
	uint16_t version;
	uint32_t exitcode;
	uint8_t flag, nice;
	uint64_t cpu_count __attribute__((aligned(8)));
	uint64_t cpu_delay_total, blkio_count, blkio_delay_total;
	uint64_t swapin_count, swapin_delay_total;
	uint64_t cpu_run_real_total, cpu_run_virtual_total;
	TS_ABI_ACCOUNTING
	uint64_t thrashing_count, thrashing_delay_total;
	uint64_t btime64;
	uint64_t compact_count, compact_delay_total;
	uint32_t tgid;
	uint64_t tgetime __attribute__((aligned(8)));
	uint64_t exe_dev, exe_inode;
	uint64_t wpcopy_count, wpcopy_delay_total;
	uint64_t irq_count, irq_delay_total;
	uint64_t cpu_delay_max, cpu_delay_min, blkio_delay_max, blkio_delay_min;
	uint64_t swapin_delay_max, swapin_delay_min;
	uint64_t freepages_delay_max, freepages_delay_min;
	uint64_t thrashing_delay_max, thrashing_delay_min;
	uint64_t compact_delay_max, compact_delay_min;
	uint64_t wpcopy_delay_max, wpcopy_delay_min;
	uint64_t irq_delay_max, irq_delay_min;
	struct ts_timespec cpu_delay_max_ts, blkio_delay_max_ts;
	struct ts_timespec swapin_delay_max_ts, freepages_delay_max_ts;
	struct ts_timespec thrashing_delay_max_ts, compact_delay_max_ts;
	struct ts_timespec wpcopy_delay_max_ts, irq_delay_max_ts;
};

/* Version 15 (Linux 6.14): peaks right after each delay total. */
struct ts_abi_v15 {
	uint16_t version;
	uint32_t exitcode;
	uint8_t flag, nice;
	uint64_t cpu_count __attribute__((aligned(8)));
	uint64_t cpu_delay_total, cpu_delay_max, cpu_delay_min;
	uint64_t blkio_count, blkio_delay_total, blkio_delay_max, blkio_delay_min;
	uint64_t swapin_count, swapin_delay_total, swapin_delay_max, swapin_delay_min;
	uint64_t cpu_run_real_total, cpu_run_virtual_total;
	TS_ABI_ACCOUNTING
	uint64_t freepages_delay_max, freepages_delay_min;
	uint64_t thrashing_count, thrashing_delay_total;
	uint64_t thrashing_delay_max, thrashing_delay_min;
	uint64_t btime64;
	uint64_t compact_count, compact_delay_total;
	uint64_t compact_delay_max, compact_delay_min;
	uint32_t tgid;
	uint64_t tgetime __attribute__((aligned(8)));
	uint64_t exe_dev, exe_inode;
	uint64_t wpcopy_count, wpcopy_delay_total;
	uint64_t wpcopy_delay_max, wpcopy_delay_min;
	uint64_t irq_count, irq_delay_total, irq_delay_max, irq_delay_min;
};

/* Version 1 (Linux 2.6.18 development): padding, then the delay fields. */
struct ts_abi_v1 {
	uint16_t version;
	uint16_t padding[3];
	uint64_t cpu_count, cpu_delay_total, blkio_count, blkio_delay_total;
	uint64_t swapin_count, swapin_delay_total;
	uint64_t cpu_run_real_total, cpu_run_virtual_total;
};

_Static_assert(sizeof(struct ts_abi_v1) == 72, "v1 layout");
_Static_assert(offsetof(struct ts_abi, tgid) == 368, "v12 layout");
_Static_assert(offsetof(struct ts_abi, cpu_delay_max) == 432, "v16 layout");
_Static_assert(sizeof(struct ts_abi_v15) == 560, "v15 layout");
_Static_assert(offsetof(struct ts_abi, cpu_delay_max_ts) == 560, "v17 layout");
_Static_assert(sizeof(struct ts_abi) == 688, "v17 layout");

/* Every field: X(how, id, member, name), where how says which layouts
 * hold it: FD every one but v1, FD_NO15 not v15 either (added after it),
 * FD_V1 v1 too. */
#define TS_FIELDS(X) \
	X(FD, F_EXITCODE, exitcode, "exitcode") \
	X(FD, F_FLAG, flag, "flags") \
	X(FD, F_NICE, nice, "nice") \
	X(FD_V1, F_CPU_COUNT, cpu_count, "cpu_count") \
	X(FD_V1, F_CPU_DELAY_TOTAL, cpu_delay_total, "cpu_delay_ns") \
	X(FD_V1, F_BLKIO_COUNT, blkio_count, "blkio_count") \
	X(FD_V1, F_BLKIO_DELAY_TOTAL, blkio_delay_total, "blkio_delay_ns") \
	X(FD_V1, F_SWAPIN_COUNT, swapin_count, "swapin_count") \
	X(FD_V1, F_SWAPIN_DELAY_TOTAL, swapin_delay_total, "swapin_delay_ns") \
	X(FD_V1, F_CPU_RUN_REAL_TOTAL, cpu_run_real_total, "cpu_run_real_ns") \
	X(FD_V1, F_CPU_RUN_VIRTUAL_TOTAL, cpu_run_virtual_total, "cpu_run_virtual_ns") \
	X(FD, F_SCHED, sched, "sched") \
	X(FD, F_UID, uid, "uid") \
	X(FD, F_GID, gid, "gid") \
	X(FD, F_PID, pid, "ac_pid") \
	X(FD, F_PPID, ppid, "ppid") \
	X(FD, F_BTIME, btime, "btime32") \
	X(FD, F_ETIME, etime, "elapsed_us") \
	X(FD, F_UTIME, utime, "utime_us") \
	X(FD, F_STIME, stime, "stime_us") \
	X(FD, F_MINFLT, minflt, "minflt") \
	X(FD, F_MAJFLT, majflt, "majflt") \
	X(FD, F_COREMEM, coremem, "coremem_mb_us") \
	X(FD, F_VIRTMEM, virtmem, "virtmem_mb_us") \
	X(FD, F_HIWATER_RSS, hiwater_rss, "hiwater_rss_kb") \
	X(FD, F_HIWATER_VM, hiwater_vm, "hiwater_vm_kb") \
	X(FD, F_READ_CHAR, read_char, "read_char") \
	X(FD, F_WRITE_CHAR, write_char, "write_char") \
	X(FD, F_READ_SYSCALLS, read_syscalls, "read_syscalls") \
	X(FD, F_WRITE_SYSCALLS, write_syscalls, "write_syscalls") \
	X(FD, F_READ_BYTES, read_bytes, "read_bytes") \
	X(FD, F_WRITE_BYTES, write_bytes, "write_bytes") \
	X(FD, F_CANCELLED_WRITE_BYTES, cancelled_write_bytes, "cancelled_write_bytes") \
	X(FD, F_NVCSW, nvcsw, "nvcsw") \
	X(FD, F_NIVCSW, nivcsw, "nivcsw") \
	X(FD, F_UTIMESCALED, utimescaled, "utimescaled_us") \
	X(FD, F_STIMESCALED, stimescaled, "stimescaled_us") \
	X(FD, F_CPU_SCALED_RUN_REAL_TOTAL, cpu_scaled_run_real_total, "cpu_scaled_run_real_ns") \
	X(FD, F_FREEPAGES_COUNT, freepages_count, "freepages_count") \
	X(FD, F_FREEPAGES_DELAY_TOTAL, freepages_delay_total, "freepages_delay_ns") \
	X(FD, F_THRASHING_COUNT, thrashing_count, "thrashing_count") \
	X(FD, F_THRASHING_DELAY_TOTAL, thrashing_delay_total, "thrashing_delay_ns") \
	X(FD, F_BTIME64, btime64, "btime64") \
	X(FD, F_COMPACT_COUNT, compact_count, "compact_count") \
	X(FD, F_COMPACT_DELAY_TOTAL, compact_delay_total, "compact_delay_ns") \
	X(FD, F_TGID, tgid, "ac_tgid") \
	X(FD, F_TGETIME, tgetime, "tgetime_us") \
	X(FD, F_EXE_DEV, exe_dev, "exe_dev") \
	X(FD, F_EXE_INODE, exe_inode, "exe_inode") \
	X(FD, F_WPCOPY_COUNT, wpcopy_count, "wpcopy_count") \
	X(FD, F_WPCOPY_DELAY_TOTAL, wpcopy_delay_total, "wpcopy_delay_ns") \
	X(FD, F_IRQ_COUNT, irq_count, "irq_count") \
	X(FD, F_IRQ_DELAY_TOTAL, irq_delay_total, "irq_delay_ns") \
	X(FD, F_CPU_DELAY_MAX, cpu_delay_max, "cpu_delay_max_ns") \
	X(FD, F_CPU_DELAY_MIN, cpu_delay_min, "cpu_delay_min_ns") \
	X(FD, F_BLKIO_DELAY_MAX, blkio_delay_max, "blkio_delay_max_ns") \
	X(FD, F_BLKIO_DELAY_MIN, blkio_delay_min, "blkio_delay_min_ns") \
	X(FD, F_SWAPIN_DELAY_MAX, swapin_delay_max, "swapin_delay_max_ns") \
	X(FD, F_SWAPIN_DELAY_MIN, swapin_delay_min, "swapin_delay_min_ns") \
	X(FD, F_FREEPAGES_DELAY_MAX, freepages_delay_max, "freepages_delay_max_ns") \
	X(FD, F_FREEPAGES_DELAY_MIN, freepages_delay_min, "freepages_delay_min_ns") \
	X(FD, F_THRASHING_DELAY_MAX, thrashing_delay_max, "thrashing_delay_max_ns") \
	X(FD, F_THRASHING_DELAY_MIN, thrashing_delay_min, "thrashing_delay_min_ns") \
	X(FD, F_COMPACT_DELAY_MAX, compact_delay_max, "compact_delay_max_ns") \
	X(FD, F_COMPACT_DELAY_MIN, compact_delay_min, "compact_delay_min_ns") \
	X(FD, F_WPCOPY_DELAY_MAX, wpcopy_delay_max, "wpcopy_delay_max_ns") \
	X(FD, F_WPCOPY_DELAY_MIN, wpcopy_delay_min, "wpcopy_delay_min_ns") \
	X(FD, F_IRQ_DELAY_MAX, irq_delay_max, "irq_delay_max_ns") \
	X(FD, F_IRQ_DELAY_MIN, irq_delay_min, "irq_delay_min_ns") \
	X(FD_NO15, F_CPU_DELAY_MAX_TS, cpu_delay_max_ts, "cpu_delay_max_ts_ns") \
	X(FD_NO15, F_BLKIO_DELAY_MAX_TS, blkio_delay_max_ts, "blkio_delay_max_ts_ns") \
	X(FD_NO15, F_SWAPIN_DELAY_MAX_TS, swapin_delay_max_ts, "swapin_delay_max_ts_ns") \
	X(FD_NO15, F_FREEPAGES_DELAY_MAX_TS, freepages_delay_max_ts, "freepages_delay_max_ts_ns") \
	X(FD_NO15, F_THRASHING_DELAY_MAX_TS, thrashing_delay_max_ts, "thrashing_delay_max_ts_ns") \
	X(FD_NO15, F_COMPACT_DELAY_MAX_TS, compact_delay_max_ts, "compact_delay_max_ts_ns") \
	X(FD_NO15, F_WPCOPY_DELAY_MAX_TS, wpcopy_delay_max_ts, "wpcopy_delay_max_ts_ns") \
	X(FD_NO15, F_IRQ_DELAY_MAX_TS, irq_delay_max_ts, "irq_delay_max_ts_ns")


/* Each field's offset in the append-only layout (every version but 1 and
 * 15).  Indexed by a constant, a load from this constant table folds to
 * a constant in the code: the writers' common case. */
#define TS_APPEND_OFF(how, id, m, nm) [id] = offsetof(struct ts_abi, m),
static const uint16_t ts_append_offs[F__COUNT] = { TS_FIELDS(TS_APPEND_OFF) };
#undef TS_APPEND_OFF

static inline unsigned ts_append_off(enum rec_field f)
{
	return ts_append_offs[f];
}

#endif
