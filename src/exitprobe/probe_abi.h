/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the BPF programs (exitprobe.bpf.c) and user space share: the
 * counters' layout and the sizes of the tables user space fills in.
 * Fixed-width kernel types only; both sides define __u32/__u64 first. */
#ifndef EXITPROBE_PROBE_ABI_H
#define EXITPROBE_PROBE_ABI_H

/* Exit classes: bit 0 = tgid accumulator on, bit 1 = listener present. */
#define PROBE_NCLASS		4
#define PROBE_CLS_TGID	1u
#define PROBE_CLS_LISTENER	2u

/* Where a sample inside taskstats_exit() was: the function it had called
 * directly (or itself).  User space maps kernel symbols to these. */
enum probe_callee {
	CALLEE_SELF,		/* taskstats_exit's own code (inlined helpers) */
	CALLEE_FILL_STATS,	/* fill_stats(): the pid record */
	CALLEE_TGID,		/* fill_tgid_exit() (inlined): siglock, delay sums */
	CALLEE_ALLOC,		/* prepare_reply(): the reply skb */
	CALLEE_MKREPLY,		/* mk_reply(): the netlink attributes */
	CALLEE_SEND,		/* netlink_unicast(), skb_clone() */
	CALLEE_OTHER,		/* any other function */
	PROBE_NCALLEE
};

#define PROBE_MAX_RANGES	16	/* kernel text ranges passed in */
#define PROBE_MAX_LISTENERS	16	/* --listener-pid values */
#define PROBE_STACK_DEPTH	32	/* kernel frames walked per sample */
#define PROBE_LIST_WALK		16	/* listener list entries walked per exit */

struct probe_range {
	__u64 start, end;	/* [start, end) of a kernel function */
	__u32 callee;		/* enum probe_callee; range 0 is taskstats_exit */
	__u32 pad;
};

/* Per-CPU totals, summed by user space. */
struct probe_counters {
	__u64 exits[PROBE_NCLASS];
	__u64 foreign[PROBE_NCLASS];	/* exits that met an undeclared listener */
	__u64 samples[PROBE_NCLASS][PROBE_NCALLEE];	/* sample method */
	__u64 sample_ns[PROBE_NCLASS][PROBE_NCALLEE];	/* sum of their periods */
	__u64 ns[PROBE_NCLASS];		/* fentry method: sum of ns */
	__u64 ns_sq[PROBE_NCLASS];	/* fentry: sum of squared ns (for the CI) */
	__u64 hist[PROBE_NCLASS][64];	/* fentry: probe_hist_bucket() counts */
	__u64 samples_all;		/* every sample the sampler took */
	__u64 samples_in_ts;		/* of which inside taskstats_exit */
	__u64 samples_lost;		/* could not be kept for their exit */
	__u64 rq_mismatch;		/* listener state unknown at an exit */
	__u64 track_full;		/* descendants not tracked: map full */
};

/* Per-task pending measurement, moved into the exit's class at exit. */
struct probe_pending {
	__u64 samples[PROBE_NCALLEE];
	__u64 sample_ns[PROBE_NCALLEE];	/* each sample's period */
	__u64 ns;		/* fentry: time in the call */
	__u64 t0;		/* fentry: entry time */
};

/* fentry, exact histogram: one bucket per ns (per instruction under the
 * instruction clock) from 0 to PROBE_EXACT_N - 1, per class, in chunks of
 * PROBE_EXACT_CHUNK counters: map key class * PROBE_EXACT_CHUNKS + ns /
 * PROBE_EXACT_CHUNK, index ns % PROBE_EXACT_CHUNK.  Chunks keep each
 * per-CPU value small (4 KiB) and the index a mask the verifier trusts.
 * Calls at PROBE_EXACT_N or more are in the log histogram only. */
#define PROBE_EXACT_CHUNK	1024
#define PROBE_EXACT_CHUNKS	8
#define PROBE_EXACT_N		(PROBE_EXACT_CHUNK * PROBE_EXACT_CHUNKS)

struct probe_exact_chunk {
	__u32 n[PROBE_EXACT_CHUNK];	/* per CPU: calls that took this long */
};

/* fentry histogram: exact below 8 ns, then 4 buckets per power of two up
 * to bucket 63 (which holds everything from 2^16 + 3 * 2^14 ns on). */
#define PROBE_HIST_BUCKETS	64

static inline __u32 probe_hist_bucket(__u64 ns)
{
	__u32 msb = 0;
	__u64 v = ns;

	if (ns < 8)
		return (__u32)ns;
	if (v >> 32) { v >>= 32; msb += 32; }
	if (v >> 16) { v >>= 16; msb += 16; }
	if (v >> 8) { v >>= 8; msb += 8; }
	if (v >> 4) { v >>= 4; msb += 4; }
	if (v >> 2) { v >>= 2; msb += 2; }
	if (v >> 1) msb += 1;
	if (msb > 16)
		return PROBE_HIST_BUCKETS - 1;
	return (msb - 1) * 4 + (__u32)((ns >> (msb - 2)) & 3);
}

#endif
