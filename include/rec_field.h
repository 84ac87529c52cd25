/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fields of struct taskstats as the rest of the code names them: one
 * id per field in struct order (enum rec_field) and each field's size.
 * Below both the record (record.h) and the kernel's layouts (tsabi.h),
 * which map each id to an offset. */
#ifndef COMMON_REC_FIELD_H
#define COMMON_REC_FIELD_H

/* Attribute and command numbers: the kernel's (TASKSTATS_TYPE_*,
 * TASKSTATS_CMD_*), and TS_COMM_LEN. */
#include <linux/taskstats.h>

/* Newest struct version whose layout we know (mainline's uapi
 * <linux/taskstats.h> of Linux 7.0 and later, 688 bytes); later ones parse
 * by prefix. */
#define TS_KNOWN_VERSION 17

/* Every struct taskstats field, in struct order (the version that added a
 * group is noted).  Each layout's offsets are in tsabi.h. */
enum rec_field {
	/* v1: header, delay accounting, basic accounting */
	F_EXITCODE, F_FLAG, F_NICE,
	F_CPU_COUNT, F_CPU_DELAY_TOTAL, F_BLKIO_COUNT, F_BLKIO_DELAY_TOTAL,
	F_SWAPIN_COUNT, F_SWAPIN_DELAY_TOTAL, F_CPU_RUN_REAL_TOTAL,
	F_CPU_RUN_VIRTUAL_TOTAL,
	F_SCHED, F_UID, F_GID, F_PID, F_PPID, F_BTIME, F_ETIME, F_UTIME,
	F_STIME, F_MINFLT, F_MAJFLT,
	/* v2: extended accounting */
	F_COREMEM, F_VIRTMEM, F_HIWATER_RSS, F_HIWATER_VM, F_READ_CHAR,
	F_WRITE_CHAR, F_READ_SYSCALLS, F_WRITE_SYSCALLS,
	/* v3: storage I/O */
	F_READ_BYTES, F_WRITE_BYTES, F_CANCELLED_WRITE_BYTES,
	/* v4: context switches */
	F_NVCSW, F_NIVCSW,
	/* v6: scaled times */
	F_UTIMESCALED, F_STIMESCALED, F_CPU_SCALED_RUN_REAL_TOTAL,
	/* v7: memory reclaim delay */
	F_FREEPAGES_COUNT, F_FREEPAGES_DELAY_TOTAL,
	/* v9: thrashing */
	F_THRASHING_COUNT, F_THRASHING_DELAY_TOTAL,
	/* v10: 64-bit begin time */
	F_BTIME64,
	/* v11: memory compaction */
	F_COMPACT_COUNT, F_COMPACT_DELAY_TOTAL,
	/* v12: thread group, executable */
	F_TGID, F_TGETIME, F_EXE_DEV, F_EXE_INODE,
	/* v13: write-protect copy */
	F_WPCOPY_COUNT, F_WPCOPY_DELAY_TOTAL,
	/* v14: IRQ */
	F_IRQ_COUNT, F_IRQ_DELAY_TOTAL,
	/* v15 (inserted in the middle) / v16 (moved to the end): peaks */
	F_CPU_DELAY_MAX, F_CPU_DELAY_MIN, F_BLKIO_DELAY_MAX, F_BLKIO_DELAY_MIN,
	F_SWAPIN_DELAY_MAX, F_SWAPIN_DELAY_MIN, F_FREEPAGES_DELAY_MAX,
	F_FREEPAGES_DELAY_MIN, F_THRASHING_DELAY_MAX, F_THRASHING_DELAY_MIN,
	F_COMPACT_DELAY_MAX, F_COMPACT_DELAY_MIN, F_WPCOPY_DELAY_MAX,
	F_WPCOPY_DELAY_MIN, F_IRQ_DELAY_MAX, F_IRQ_DELAY_MIN,
	/* v17 (Linux 7.0): when each kind's longest wait happened, a struct
	 * __kernel_timespec in the struct, nanoseconds here */
	F_CPU_DELAY_MAX_TS, F_BLKIO_DELAY_MAX_TS, F_SWAPIN_DELAY_MAX_TS,
	F_FREEPAGES_DELAY_MAX_TS, F_THRASHING_DELAY_MAX_TS,
	F_COMPACT_DELAY_MAX_TS, F_WPCOPY_DELAY_MAX_TS, F_IRQ_DELAY_MAX_TS,
	F__COUNT
};

/* Size in bytes of a field in struct taskstats (a constant expression, so
 * that record.c can check it against the layouts and the writers fold it
 * away; the readers take each value's range from it): the v17 timestamps
 * are a struct __kernel_timespec. */
#define REC_FIELD_SIZE(f) \
	((f) == F_FLAG || (f) == F_NICE || (f) == F_SCHED ? 1u : \
	 (f) == F_EXITCODE || (f) == F_UID || (f) == F_GID || (f) == F_PID || \
	 (f) == F_PPID || (f) == F_BTIME || (f) == F_TGID ? 4u : \
	 (f) >= F_CPU_DELAY_MAX_TS && (f) <= F_IRQ_DELAY_MAX_TS ? 16u : 8u)

#endif
