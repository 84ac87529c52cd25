/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loading and attaching exitprobe's BPF programs, choosing the method,
 * and reading the counters back. */
#ifndef EXITPROBE_PROBE_BPF_H
#define EXITPROBE_PROBE_BPF_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "probe_abi.h"

enum probe_method { METHOD_AUTO, METHOD_FENTRY, METHOD_SAMPLE };

/* Why a start failed, for the exit status. */
enum probe_fail {
	FAIL_NONE,
	FAIL_NOBPF,	/* BPF not usable at all: no BTF, privileges, seccomp */
	FAIL_METHOD,	/* the requested method is refused here */
	FAIL_OTHER,
};

struct probe_setup {
	enum probe_method method;
	__u64 period_ns;	/* sample */
	bool all;		/* every exit on the machine */
	const __s32 *declared;	/* --listener-pid */
	size_t ndeclared;
	bool run_stats;		/* kernel.bpf_stats for the probe's own cost */
};

struct exitprobe_bpf;
struct bpf_link;

struct probe {
	struct exitprobe_bpf *skel;
	enum probe_method used;
	char reason[256];	/* why this method (or why it failed) */
	enum probe_fail fail;
	int ncpu;		/* possible CPUs: per-CPU map values */
	int nev;
	int *ev_fd;		/* cpu-clock events, one per online CPU */
	struct bpf_link **ev_link;
	int stats_fd;		/* -1 when run-time stats are off */
	struct probe_range ranges[PROBE_MAX_RANGES];
	__u32 nranges;
};

/* What the probe cost: BPF run counts and time, per program. */
struct probe_cost {
	__u64 run_cnt, run_ns;
	bool have_run_ns;
};

/* fentry: the exact histogram summed over the CPUs (probe_abi.h). */
struct probe_exact {
	__u64 n[PROBE_NCLASS][PROBE_EXACT_N];
};

/* Load and attach; on failure p->fail and p->reason say why (-errno). */
int probe_bpf_start(struct probe *p, const struct probe_setup *s);
/* Put a thread group in scope (before it starts). */
int probe_bpf_track(struct probe *p, pid_t tgid);
/* sample: give every sampler a new period, uniform within +-25% of
 * period_ns, so that the sampler cannot stay in step with a workload
 * paced at a related rate.  *rng is the caller's xorshift state. */
void probe_bpf_dither(const struct probe *p, __u64 period_ns, __u64 *rng);
int probe_bpf_read(const struct probe *p, struct probe_counters *sum,
	       struct probe_cost *cost);
/* fentry only: the exact histogram; 0 or -errno. */
int probe_bpf_read_exact(const struct probe *p, struct probe_exact *sum);
void probe_bpf_stop(struct probe *p);

#endif
