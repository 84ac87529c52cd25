// SPDX-License-Identifier: GPL-2.0-or-later
/* exitprobe's kernel side.  Exits are counted and classified on
 * sched_process_exit (which fires right after taskstats_exit() returns);
 * the time spent in taskstats_exit() comes either from cpu-clock samples
 * whose kernel stack holds taskstats_exit (method "sample") or from
 * fentry/fexit around it (method "fentry").  Either way the measurement is
 * kept per task until its exit, then added to the exit's class. */
#include "probe_core.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "probe_abi.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before the load. */
const volatile bool scope_all;
const volatile __s64 rq_to_listeners;	/* &listener_array - &runqueues */
const volatile __u32 n_declared;
const volatile __s32 declared[PROBE_MAX_LISTENERS];
const volatile __u32 n_ranges;
const volatile struct probe_range ranges[PROBE_MAX_RANGES];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct probe_counters);
} counters SEC(".maps");

/* fentry: the exact histogram (probe_abi.h).  User space shrinks it to
 * one entry for the sample method, which does not use it. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PROBE_NCLASS * PROBE_EXACT_CHUNKS);
	__type(key, __u32);
	__type(value, struct probe_exact_chunk);
} exact SEC(".maps");

/* Thread groups in scope (the command and its descendants). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u8);
} tracked SEC(".maps");

/* Per task: what was measured in its taskstats_exit() so far. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct probe_pending);
} pending SEC(".maps");

static struct probe_counters *totals(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counters, &zero);
}

static bool in_scope(__u32 tgid)
{
	return scope_all || bpf_map_lookup_elem(&tracked, &tgid);
}

static struct probe_pending *pending_get(__u32 pid)
{
	struct probe_pending zero = {}, *p;

	p = bpf_map_lookup_elem(&pending, &pid);
	if (p)
		return p;
	bpf_map_update_elem(&pending, &pid, &zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(&pending, &pid);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid);
	__u32 ctgid = BPF_CORE_READ(child, tgid);
	struct probe_counters *c;
	__u8 one = 1;

	if (scope_all || ptgid == ctgid || !bpf_map_lookup_elem(&tracked, &ptgid))
		return 0;
	if (bpf_map_update_elem(&tracked, &ctgid, &one, BPF_ANY) < 0) {
		c = totals();
		if (c)
			c->track_full++;
	}
	return 0;
}

/* A listener the caller declared: netlink port id equal to the pid, or
 * libnl's scheme for further sockets (pid in the low 22 bits). */
static bool declared_port(__s32 port)
{
	for (__u32 i = 0; i < PROBE_MAX_LISTENERS; i++) {
		if (i >= n_declared)
			break;
		if (port == declared[i] ||
		    ((__u32)port & 0x3fffff) == ((__u32)declared[i] & 0x3fffff))
			return true;
	}
	return false;
}

/* This CPU's taskstats listener list: the runqueue of the CPU we run on
 * (current's cfs_rq->rq) plus the distance of the two per-CPU variables.
 * Returns NULL when the runqueue is not this CPU's. */
static struct listener_list *this_cpu_listeners(struct task_struct *p)
{
	struct rq *rq;

	/* se.cfs_rq exists with CONFIG_FAIR_GROUP_SCHED only: elsewhere the
	 * program still loads and every exit counts as "unknown". */
	if (!bpf_core_field_exists(p->se.cfs_rq))
		return NULL;
	rq = BPF_CORE_READ(p, se.cfs_rq, rq);
	if (!rq || BPF_CORE_READ(rq, cpu) != (int)bpf_get_smp_processor_id())
		return NULL;
	return (struct listener_list *)((char *)rq + rq_to_listeners);
}

/* 0 no listener, 1 listeners (*foreign set when one was not declared),
 * -1 unknown. */
static int listener_state(struct task_struct *p, bool *foreign)
{
	struct listener_list *ll = this_cpu_listeners(p);
	struct list_head *head, *pos;

	*foreign = false;
	if (!ll)
		return -1;
	head = &ll->list;
	pos = BPF_CORE_READ(ll, list.next);
	if (!pos || pos == head)
		return 0;
	for (int i = 0; i < PROBE_LIST_WALK && pos && pos != head; i++) {
		struct listener *l = (struct listener *)pos;	/* list is first */

		if (BPF_CORE_READ(l, valid) && !declared_port(BPF_CORE_READ(l, pid)))
			*foreign = true;
		pos = BPF_CORE_READ(l, list.next);
	}
	return 1;
}

static void add_exact(__u32 cls, __u64 ns)
{
	struct probe_exact_chunk *x;
	__u32 key;

	if (ns >= PROBE_EXACT_N)
		return;
	key = (cls & 3) * PROBE_EXACT_CHUNKS + (__u32)(ns / PROBE_EXACT_CHUNK);
	x = bpf_map_lookup_elem(&exact, &key);
	if (x)
		x->n[ns & (PROBE_EXACT_CHUNK - 1)]++;
}

static void add_pending(struct probe_counters *c, __u32 cls, __u32 pid)
{
	struct probe_pending *pd = bpf_map_lookup_elem(&pending, &pid);
	__u64 ns;

	if (!pd)
		return;
	for (int i = 0; i < PROBE_NCALLEE; i++) {
		c->samples[cls & 3][i] += pd->samples[i];
		c->sample_ns[cls & 3][i] += pd->sample_ns[i];
	}
	ns = pd->ns;
	if (ns) {
		c->ns[cls & 3] += ns;
		c->ns_sq[cls & 3] += ns * ns;
		c->hist[cls & 3][probe_hist_bucket(ns) & 63]++;
		add_exact(cls, ns);
	}
	bpf_map_delete_elem(&pending, &pid);
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid), pid = BPF_CORE_READ(p, pid);
	struct probe_counters *c;
	bool foreign;
	__u32 cls = 0;
	int ls;

	if (!in_scope(tgid))
		return 0;
	c = totals();
	if (!c)
		return 0;
	if (BPF_CORE_READ(p, signal, stats))
		cls |= PROBE_CLS_TGID;
	ls = listener_state(p, &foreign);
	if (ls < 0)
		c->rq_mismatch++;
	if (ls > 0)
		cls |= PROBE_CLS_LISTENER;
	c->exits[cls & 3]++;
	if (ls > 0 && foreign)
		c->foreign[cls & 3]++;
	add_pending(c, cls, pid);
	if (!scope_all && BPF_CORE_READ(p, signal, live.counter) == 0)
		bpf_map_delete_elem(&tracked, &tgid);
	return 0;
}

static __u32 callee_of(__u64 addr)
{
	for (__u32 i = 1; i < PROBE_MAX_RANGES; i++) {
		if (i >= n_ranges)
			break;
		if (addr >= ranges[i].start && addr < ranges[i].end)
			return ranges[i].callee;
	}
	return CALLEE_OTHER;
}

/* The function taskstats_exit() had called when the sample hit, or -1
 * when the stack does not hold taskstats_exit. */
static int classify(const __u64 *stack, long n)
{
	__u64 lo = ranges[0].start, hi = ranges[0].end, prev = 0;

	for (int i = 0; i < PROBE_STACK_DEPTH; i++) {
		if (i >= n)
			break;
		if (stack[i] >= lo && stack[i] < hi)
			return i == 0 ? CALLEE_SELF : (int)callee_of(prev);
		prev = stack[i];
	}
	return -1;
}

SEC("perf_event")
int on_sample(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), stack[PROBE_STACK_DEPTH];
	struct probe_counters *c = totals();
	struct task_struct *task;
	struct probe_pending *pd;
	long n;
	int callee;

	if (!c)
		return 0;
	c->samples_all++;
	/* Only an exiting task can be in taskstats_exit(): the stack walk,
	 * the costly part, is for those alone. */
	task = (struct task_struct *)bpf_get_current_task();
	if (!(BPF_CORE_READ(task, flags) & PF_EXITING) || !in_scope(id >> 32))
		return 0;
	n = bpf_get_stack(ctx, stack, sizeof(stack), 0);
	if (n <= 0)
		return 0;
	callee = classify(stack, n / 8);
	if (callee < 0)
		return 0;
	if (callee >= PROBE_NCALLEE)
		callee = CALLEE_OTHER;
	c->samples_in_ts++;
	pd = pending_get((__u32)id);
	if (!pd) {
		c->samples_lost++;
		return 0;
	}
	pd->samples[callee]++;
	/* User space varies the period to keep the sampler out of step with
	 * a paced workload: each sample stands for its own period. */
	pd->sample_ns[callee] += ctx->sample_period;
	return 0;
}

SEC("fentry/taskstats_exit")
int BPF_PROG(ts_enter)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct probe_pending *pd;
	struct probe_counters *c;

	if (!in_scope(id >> 32))
		return 0;
	pd = pending_get((__u32)id);
	if (pd) {
		pd->t0 = bpf_ktime_get_ns();
	} else {
		c = totals();
		if (c)
			c->samples_lost++;
	}
	return 0;
}

/* The clock is read first, before the hash lookup, whose length varies
 * with the bucket: what is timed between the two reads is the call plus
 * a fixed stretch of trampoline, the same for every call (under the
 * instruction clock, to the instruction). */
SEC("fexit/taskstats_exit")
int BPF_PROG(ts_leave)
{
	__u64 t1 = bpf_ktime_get_ns();
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	struct probe_pending *pd = bpf_map_lookup_elem(&pending, &pid);

	if (pd && pd->t0) {
		pd->ns = t1 - pd->t0;
		pd->t0 = 0;
	}
	return 0;
}
