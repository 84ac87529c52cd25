// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe_bpf.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cpulist.h"
#include "exitprobe.skel.h"
#include "probe_btf.h"
#include "probe_ksyms.h"

static int fail(struct probe *p, enum probe_fail kind, int err,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(struct probe *p, enum probe_fail kind, int err,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->reason, sizeof(p->reason), fmt, ap);
	va_end(ap);
	p->fail = kind;
	return err < 0 ? err : -err;
}

static bool cap_effective(cap_t caps, cap_value_t c)
{
	cap_flag_value_t v = CAP_CLEAR;

	return caps && cap_get_flag(caps, c, CAP_EFFECTIVE, &v) == 0 &&
	       v == CAP_SET;
}

/* CAP_SYS_ADMIN, or CAP_BPF with CAP_PERFMON (5.8 on). */
static bool have_bpf_caps(void)
{
	cap_t caps = cap_get_proc();
	bool ok = cap_effective(caps, CAP_SYS_ADMIN) ||
		  (cap_effective(caps, CAP_BPF) && cap_effective(caps, CAP_PERFMON));

	cap_free(caps);
	return ok;
}

/* Seccomp mode from /proc/self/status: 2 means a filter. */
static int seccomp_mode(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	int mode = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			break;
	fclose(f);
	return mode;
}

static int preflight(struct probe *p)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0)
		return fail(p, FAIL_NOBPF, ENOENT, "BPF unavailable: the kernel "
			    "has no BTF (/sys/kernel/btf/vmlinux); it needs "
			    "CONFIG_DEBUG_INFO_BTF=y");
	if (!have_bpf_caps())
		return fail(p, FAIL_NOBPF, EPERM, "BPF unavailable: needs "
			    "CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN); run "
			    "it as root");
	return 0;
}

static int read_ranges(struct probe *p)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	int r;

	if (!f)
		return fail(p, FAIL_NOBPF, errno, "cannot read /proc/kallsyms: "
			    "%s", strerror(errno));
	r = probe_ksyms_ranges(f, p->ranges, &p->nranges);
	fclose(f);
	if (r == -EPERM)
		return fail(p, FAIL_NOBPF, r, "/proc/kallsyms shows no addresses "
			    "(kernel.kptr_restrict): run it as root");
	if (r < 0)
		return fail(p, FAIL_OTHER, r, "taskstats_exit is not in "
			    "/proc/kallsyms: %s", strerror(-r));
	return 0;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	(void)level; (void)fmt; (void)ap;
	return 0;
}

static void set_rodata(struct probe *p, const struct probe_setup *s,
		       int64_t delta)
{
	struct exitprobe_bpf__rodata *ro = p->skel->rodata;
	size_t n = s->ndeclared < PROBE_MAX_LISTENERS ? s->ndeclared :
							 PROBE_MAX_LISTENERS;

	ro->scope_all = s->all;
	ro->rq_to_listeners = delta;
	ro->n_declared = (__u32)n;
	for (size_t i = 0; i < n; i++)
		ro->declared[i] = s->declared[i];
	ro->n_ranges = p->nranges;
	memcpy(ro->ranges, p->ranges, sizeof(p->ranges));
}

/* Open, configure and load one method's programs, then attach the
 * tracing ones. */
static int load_method(struct probe *p, const struct probe_setup *s,
		       enum probe_method m, int64_t delta)
{
	struct exitprobe_bpf *sk = exitprobe_bpf__open();
	int r;

	if (!sk)
		return -errno;
	p->skel = sk;
	set_rodata(p, s, delta);
	bpf_program__set_autoload(sk->progs.on_sample, m == METHOD_SAMPLE);
	bpf_program__set_autoload(sk->progs.ts_enter, m == METHOD_FENTRY);
	bpf_program__set_autoload(sk->progs.ts_leave, m == METHOD_FENTRY);
	if (m != METHOD_FENTRY)
		bpf_map__set_max_entries(sk->maps.exact, 1);
	r = exitprobe_bpf__load(sk);
	if (r == 0)
		r = exitprobe_bpf__attach(sk);
	if (r < 0) {
		exitprobe_bpf__destroy(sk);
		p->skel = NULL;
		return r < 0 ? r : -EINVAL;
	}
	p->used = m;
	return 0;
}

static long perf_open(struct perf_event_attr *a, int cpu)
{
	return syscall(SYS_perf_event_open, a, -1, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* One cpu-clock sampler per online CPU, each running on_sample. */
static int attach_samplers(struct probe *p, __u64 period_ns)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = period_ns,
		.disabled = 1,
	};
	struct cpuset_bits online;
	int r = cpulist_read_file("/sys/devices/system/cpu/online", &online);

	if (r < 0)
		return r;
	p->ev_fd = calloc((size_t)p->ncpu, sizeof(*p->ev_fd));
	p->ev_link = calloc((size_t)p->ncpu, sizeof(*p->ev_link));
	if (!p->ev_fd || !p->ev_link)
		return -ENOMEM;
	for (int cpu = 0; cpu < p->ncpu; cpu++) {
		long fd;

		if (!cpulist_test(&online, (unsigned)cpu))
			continue;
		fd = perf_open(&a, cpu);
		if (fd < 0)
			return -errno;
		p->ev_fd[p->nev] = (int)fd;
		p->ev_link[p->nev] = bpf_program__attach_perf_event(
			p->skel->progs.on_sample, (int)fd);
		p->nev++;
		if (!p->ev_link[p->nev - 1])
			return -errno;
	}
	return 0;
}

static const char *hint(int err)
{
	if (err == -EPERM && seccomp_mode() == 2)
		return " (a seccomp filter is active)";
	if (err == -EPERM || err == -EACCES)
		return " (no privileges, or a security policy forbids BPF)";
	return "";
}

/* fentry for real; on refusal, the reason goes into p->reason. */
static int try_fentry(struct probe *p, const struct probe_setup *s,
		      int64_t delta)
{
	int r = load_method(p, s, METHOD_FENTRY, delta);

	if (r == 0)
		snprintf(p->reason, sizeof(p->reason), s->method == METHOD_AUTO ?
			 "auto: fentry/fexit on taskstats_exit loaded" :
			 "requested");
	else
		snprintf(p->reason, sizeof(p->reason), "fentry refused: loading "
			 "fentry/fexit on taskstats_exit failed: %s%s",
			 strerror(-r), r == -EPERM ? " (this kernel refuses BPF "
			 "trampoline programs)" : "");
	return r;
}

static int start_sample(struct probe *p, const struct probe_setup *s,
			int64_t delta)
{
	char why[sizeof(p->reason)];
	int r;

	snprintf(why, sizeof(why), "%s", s->method == METHOD_AUTO ?
		 p->reason : "requested");
	r = read_ranges(p);
	if (r < 0)
		return r;
	r = load_method(p, s, METHOD_SAMPLE, delta);
	if (r < 0)
		return fail(p, r == -EPERM || r == -EACCES ? FAIL_NOBPF : FAIL_OTHER,
			    r, "BPF unavailable: loading the tracepoint and "
			    "sampling programs failed: %s%s", strerror(-r), hint(r));
	r = attach_samplers(p, s->period_ns);
	if (r < 0)
		return fail(p, FAIL_OTHER, r, "cannot start the cpu-clock "
			    "samplers: %s", strerror(-r));
	snprintf(p->reason, sizeof(p->reason), "%s", why);
	return 0;
}

int probe_bpf_start(struct probe *p, const struct probe_setup *s)
{
	int64_t delta;
	int r;

	*p = (struct probe){ .stats_fd = -1, .ncpu = libbpf_num_possible_cpus() };
	libbpf_set_print(getenv("EXITPROBE_DEBUG") ? NULL : libbpf_quiet);
	if ((r = preflight(p)) < 0)
		return r;
	if (p->ncpu <= 0)
		return fail(p, FAIL_OTHER, p->ncpu, "cannot count the CPUs");
	r = probe_btf_listener_delta(&delta);
	if (r < 0)
		return fail(p, FAIL_OTHER, r, "cannot find runqueues and "
			    "listener_array in the kernel's BTF: %s", strerror(-r));
	if (s->method != METHOD_SAMPLE) {
		r = try_fentry(p, s, delta);
		if (r == 0 || s->method == METHOD_FENTRY)
			goto done;
	}
	r = start_sample(p, s, delta);
done:
	if (r < 0 && s->method == METHOD_FENTRY)
		p->fail = r == -EPERM && have_bpf_caps() ? FAIL_METHOD : FAIL_NOBPF;
	if (r == 0 && s->run_stats)
		p->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	return r;
}

int probe_bpf_track(struct probe *p, pid_t tgid)
{
	__u32 key = (__u32)tgid;
	__u8 one = 1;

	return bpf_map__update_elem(p->skel->maps.tracked, &key, sizeof(key),
				    &one, sizeof(one), BPF_ANY);
}

static __u64 xorshift(__u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

void probe_bpf_dither(const struct probe *p, __u64 period_ns, __u64 *rng)
{
	for (int i = 0; i < p->nev; i++) {
		__u64 v = period_ns * 3 / 4 + xorshift(rng) % (period_ns / 2 + 1);

		/* A failure leaves the old period: harmless. */
		(void)ioctl(p->ev_fd[i], PERF_EVENT_IOC_PERIOD, &v);
	}
}

static void add_counters(struct probe_counters *sum,
			 const struct probe_counters *c)
{
	const __u64 *src = (const __u64 *)c;
	__u64 *dst = (__u64 *)sum;

	/* All members are __u64: add them as one array. */
	for (size_t i = 0; i < sizeof(*c) / sizeof(__u64); i++)
		dst[i] += src[i];
}

static void add_cost(struct probe_cost *cost, struct bpf_program *prog)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int fd = bpf_program__fd(prog);

	memset(&info, 0, sizeof(info));
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len) < 0)
		return;
	cost->run_cnt += info.run_cnt;
	cost->run_ns += info.run_time_ns;
}

int probe_bpf_read(const struct probe *p, struct probe_counters *sum,
	       struct probe_cost *cost)
{
	struct probe_counters *v = calloc((size_t)p->ncpu, sizeof(*v));
	struct exitprobe_bpf *sk = p->skel;
	__u32 zero = 0;
	int r;

	if (!v)
		return -ENOMEM;
	r = bpf_map__lookup_elem(sk->maps.counters, &zero, sizeof(zero), v,
				 sizeof(*v) * (size_t)p->ncpu, 0);
	memset(sum, 0, sizeof(*sum));
	for (int i = 0; r == 0 && i < p->ncpu; i++)
		add_counters(sum, &v[i]);
	free(v);
	memset(cost, 0, sizeof(*cost));
	cost->have_run_ns = p->stats_fd >= 0;
	add_cost(cost, sk->progs.on_fork);
	add_cost(cost, sk->progs.on_exit);
	add_cost(cost, p->used == METHOD_SAMPLE ? sk->progs.on_sample :
						  sk->progs.ts_enter);
	if (p->used == METHOD_FENTRY)
		add_cost(cost, sk->progs.ts_leave);
	return r;
}

int probe_bpf_read_exact(const struct probe *p, struct probe_exact *sum)
{
	struct probe_exact_chunk *v = calloc((size_t)p->ncpu, sizeof(*v));
	int r = 0;

	memset(sum, 0, sizeof(*sum));
	if (!v)
		return -ENOMEM;
	for (__u32 key = 0; r == 0 && key < PROBE_NCLASS * PROBE_EXACT_CHUNKS;
	     key++) {
		__u64 *dst = &sum->n[key / PROBE_EXACT_CHUNKS]
				    [(key % PROBE_EXACT_CHUNKS) * PROBE_EXACT_CHUNK];

		r = bpf_map__lookup_elem(p->skel->maps.exact, &key, sizeof(key),
					 v, sizeof(*v) * (size_t)p->ncpu, 0);
		for (int cpu = 0; r == 0 && cpu < p->ncpu; cpu++)
			for (unsigned i = 0; i < PROBE_EXACT_CHUNK; i++)
				dst[i] += v[cpu].n[i];
	}
	free(v);
	return r;
}

void probe_bpf_stop(struct probe *p)
{
	for (int i = 0; i < p->nev; i++) {
		bpf_link__destroy(p->ev_link[i]);
		close(p->ev_fd[i]);
	}
	free(p->ev_link);
	free(p->ev_fd);
	p->ev_link = NULL;
	p->ev_fd = NULL;
	p->nev = 0;
	if (p->stats_fd >= 0)
		close(p->stats_fd);
	p->stats_fd = -1;
	exitprobe_bpf__destroy(p->skel);
	p->skel = NULL;
}
