// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe_report.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "emulation.h"
#include "probe_ksyms.h"
#include "probe_summary.h"

#define ALL_CLASSES 0xfu

static const char *const class_keys[PROBE_NCLASS] = {
	PROBE_CLASS_TGID_OFF "_" PROBE_CLASS_NOLISTENER,
	PROBE_CLASS_TGID_ON "_" PROBE_CLASS_NOLISTENER,
	PROBE_CLASS_TGID_OFF "_" PROBE_CLASS_LISTENER,
	PROBE_CLASS_TGID_ON "_" PROBE_CLASS_LISTENER,
};

static const char *const class_labels[PROBE_NCLASS] = {
	"tgid off, no listener", "tgid on,  no listener",
	"tgid off, listener", "tgid on,  listener",
};

static const char *method_name(enum probe_method m)
{
	return m == METHOD_FENTRY ? "fentry" : m == METHOD_SAMPLE ? "sample" :
	       "auto";
}

struct sums {
	__u64 exits, samples, sample_ns, foreign, ns, ns_sq;
};

static struct sums sum_classes(const struct probe_result *r, unsigned mask)
{
	struct sums s = { 0 };

	for (unsigned c = 0; c < PROBE_NCLASS; c++) {
		if (!(mask & (1u << c)))
			continue;
		s.exits += r->c.exits[c];
		s.foreign += r->c.foreign[c];
		s.ns += r->c.ns[c];
		s.ns_sq += r->c.ns_sq[c];
		for (unsigned k = 0; k < PROBE_NCALLEE; k++) {
			s.samples += r->c.samples[c][k];
			s.sample_ns += r->c.sample_ns[c][k];
		}
	}
	return s;
}

/* Estimate over the classes in mask (bit i = class i): 0, or -EINVAL when
 * they had no exits. */
static int estimate(const struct probe_result *r, unsigned mask,
		    struct probe_est *e)
{
	struct sums s = sum_classes(r, mask);

	if (r->method == METHOD_FENTRY)
		return probe_est_timed(s.exits, (double)s.ns, (double)s.ns_sq, e);
	return probe_est_sampled(s.samples, (double)s.sample_ns, s.exits,
				 (double)r->period_ns, e);
}

/* The mode of class c's exact histogram: 0, or -EINVAL without one
 * (not fentry, not read, or no call inside the window). */
static int class_mode(const struct probe_result *r, unsigned c,
		      struct probe_mode *m)
{
	if (r->method != METHOD_FENTRY || !r->exact)
		return -EINVAL;
	return probe_est_mode(r->exact->n[c], PROBE_EXACT_N,
			      probe_est_hist_total(r->c.hist[c],
						   PROBE_HIST_BUCKETS), m);
}

/* The figure to read first: under the instruction clock fentry's mode
 * (the common path's exact count, which interrupted calls cannot move),
 * else the mean with its interval. */
static bool headline_mode(const struct probe_result *r)
{
	return r->method == METHOD_FENTRY && emulation_counts_instructions();
}

/* ns of samples under callee k, all classes */
static __u64 callee_ns(const struct probe_result *r, unsigned k)
{
	__u64 n = 0;

	for (unsigned c = 0; c < PROBE_NCLASS; c++)
		n += r->c.sample_ns[c][k];
	return n;
}

static void summary_mode(const struct probe_result *r, unsigned c,
			 struct kvbuf *kb)
{
	static const char *const names[] = {
		"mode_", "exits_at_mode_", "exits_below_mode_",
		"exits_above_mode_", "exits_beyond_window_",
	};
	struct probe_mode m;
	uint64_t v[5];
	char key[96];

	if (class_mode(r, c, &m) < 0)
		return;
	v[0] = m.mode; v[1] = m.at; v[2] = m.below; v[3] = m.above;
	v[4] = m.beyond;
	for (int i = 0; i < 5; i++) {
		snprintf(key, sizeof(key), "%s%s", names[i], class_keys[c]);
		kv_u64(kb, key, v[i]);
	}
}

static void summary_class(const struct probe_result *r, unsigned c,
			  struct kvbuf *kb)
{
	char key[96];
	struct probe_est e;
	double p;

	if (estimate(r, 1u << c, &e) < 0)
		return;
	snprintf(key, sizeof(key), PROBE_KEY_CLASS_PREFIX "%s", class_keys[c]);
	kv_double(kb, key, e.ns);
	snprintf(key, sizeof(key), PROBE_KEY_CLASS_PREFIX "%s_ci95", class_keys[c]);
	kv_double(kb, key, probe_est_half(&e));
	snprintf(key, sizeof(key), "exits_%s", class_keys[c]);
	kv_u64(kb, key, r->c.exits[c]);
	if (r->method != METHOD_FENTRY)
		return;
	for (int i = 0; i < 2; i++) {
		p = probe_est_hist_percentile(r->c.hist[c], PROBE_HIST_BUCKETS,
					      i ? 99 : 50);
		snprintf(key, sizeof(key), PROBE_KEY_CLASS_PREFIX "%s_p%d",
			 class_keys[c], i ? 99 : 50);
		if (p >= 0)
			kv_double(kb, key, p);
	}
	summary_mode(r, c, kb);
}

static void summary_totals(const struct probe_result *r, struct kvbuf *kb)
{
	struct sums s = sum_classes(r, ALL_CLASSES);
	struct probe_est e;

	kv_u64(kb, PROBE_KEY_EXITS, s.exits);
	kv_u64(kb, PROBE_KEY_EXITS_TGID_ON, sum_classes(r, 0xa).exits);
	kv_u64(kb, PROBE_KEY_EXITS_LISTENER, sum_classes(r, 0xc).exits);
	kv_u64(kb, PROBE_KEY_EXITS_FOREIGN, s.foreign);
	kv_u64(kb, "exits_listener_unknown", r->c.rq_mismatch);
	if (estimate(r, ALL_CLASSES, &e) < 0)
		return;
	kv_double(kb, PROBE_KEY_NS_PER_EXIT, e.ns);
	kv_double(kb, PROBE_KEY_NS_PER_EXIT_CI95, probe_est_half(&e));
	kv_double(kb, "ns_per_exit_lo", e.lo);
	kv_double(kb, "ns_per_exit_hi", e.hi);
}

static void summary_sampling(const struct probe_result *r, struct kvbuf *kb)
{
	struct sums s = sum_classes(r, ALL_CLASSES);
	char key[64];

	kv_u64(kb, PROBE_KEY_PERIOD_US, r->period_ns / 1000);
	kv_u64(kb, PROBE_KEY_SAMPLES, r->c.samples_all);
	kv_u64(kb, "samples_in_taskstats_exit", r->c.samples_in_ts);
	kv_u64(kb, "samples_counted", s.samples);
	kv_u64(kb, "samples_lost", r->c.samples_lost);
	for (unsigned k = 0; s.exits && k < PROBE_NCALLEE; k++) {
		snprintf(key, sizeof(key), "ns_per_exit_in_%s",
			 probe_ksyms_callee_name(k));
		kv_double(kb, key, (double)callee_ns(r, k) / (double)s.exits);
	}
}

int probe_report_summary_text(const struct probe_result *r, struct kvbuf *kb)
{
	kv_str(kb, PROBE_KEY_METHOD, method_name(r->method));
	kv_str(kb, PROBE_KEY_METHOD_WHY, r->reason);
	kv_str(kb, "emulated", emulation_name() ? emulation_name() : "");
	kv_double(kb, "seconds", r->seconds);
	kv_str(kb, PROBE_KEY_UNIT, emulation_unit());
	kv_str(kb, "headline", headline_mode(r) ? "mode" : "mean");
	if (r->method == METHOD_FENTRY)
		kv_u64(kb, "mode_window", PROBE_EXACT_N);
	summary_totals(r, kb);
	for (unsigned c = 0; c < PROBE_NCLASS; c++)
		summary_class(r, c, kb);
	if (r->method == METHOD_SAMPLE)
		summary_sampling(r, kb);
	else
		kv_u64(kb, "calls_lost", r->c.samples_lost);
	kv_u64(kb, "descendants_untracked", r->c.track_full);
	kv_u64(kb, PROBE_KEY_BPF_RUNS, r->cost.run_cnt);
	if (r->cost.have_run_ns)
		kv_u64(kb, PROBE_KEY_BPF_NS, r->cost.run_ns);
	return kb->err ? -ENOMEM : 0;
}

int probe_report_summary(const struct probe_result *r, const char *path)
{
	struct kvbuf kb;
	int rc;

	kv_init(&kb);
	rc = probe_report_summary_text(r, &kb);
	if (rc == 0)
		rc = kv_write_atomic(path, &kb);
	kv_free(&kb);
	return rc;
}

static double pct(__u64 part, __u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static void text_percentiles(const __u64 *hist, FILE *f)
{
	double p50 = probe_est_hist_percentile(hist, PROBE_HIST_BUCKETS, 50);
	double p99 = probe_est_hist_percentile(hist, PROBE_HIST_BUCKETS, 99);

	if (p50 >= 0)
		fprintf(f, "   p50 >= %.0f, p99 >= %.0f", p50, p99);
}

/* Under the instruction clock, fentry: the mode and the calls at,
 * below and above it, then the mean ("all" has no mode of its own). */
static void text_mode(const struct probe_result *r, FILE *f, unsigned mask)
{
	struct probe_mode m;

	if (mask == ALL_CLASSES)
		fprintf(f, " %9s %9s %9s %9s", "", "", "", "");
	else if (class_mode(r, (unsigned)__builtin_ctz(mask), &m) < 0)
		fprintf(f, " %9s %9s %9s %9s", ">window", "", "", "");
	else
		fprintf(f, " %9llu %9llu %9llu %9llu",
			(unsigned long long)m.mode, (unsigned long long)m.at,
			(unsigned long long)m.below, (unsigned long long)m.above);
}

static void text_row(const struct probe_result *r, FILE *f, const char *label,
		     unsigned mask)
{
	struct sums s = sum_classes(r, mask);
	struct probe_est e;

	if (estimate(r, mask, &e) < 0)
		return;
	fprintf(f, "  %-22s %9llu", label, (unsigned long long)s.exits);
	if (headline_mode(r))
		text_mode(r, f, mask);
	fprintf(f, " %9.0f   [%.0f, %.0f]", e.ns, e.lo, e.hi);
	if (r->method == METHOD_SAMPLE)
		fprintf(f, "   %llu samples", (unsigned long long)s.samples);
	if (r->method == METHOD_FENTRY && mask != ALL_CLASSES)
		text_percentiles(r->c.hist[__builtin_ctz(mask)], f);
	if (s.foreign)
		fprintf(f, "   %llu met a foreign listener",
			(unsigned long long)s.foreign);
	fputc('\n', f);
}

static void text_callees(const struct probe_result *r, FILE *f)
{
	struct sums s = sum_classes(r, ALL_CLASSES);

	if (r->method != METHOD_SAMPLE || !s.samples)
		return;
	fprintf(f, "where it goes (share of the time, all exits):");
	for (unsigned k = 0; k < PROBE_NCALLEE; k++)
		fprintf(f, " %s %.0f%%", probe_ksyms_callee_name(k),
			pct(callee_ns(r, k), s.sample_ns));
	fputc('\n', f);
}

static void text_cost(const struct probe_result *r, FILE *f)
{
	fprintf(f, "probe cost: ");
	if (r->method == METHOD_SAMPLE)
		fprintf(f, "%llu samples on %d CPUs (%.0f/s), ",
			(unsigned long long)r->c.samples_all, r->nev,
			r->seconds > 0 ? (double)r->c.samples_all / r->seconds : 0);
	fprintf(f, "%llu BPF program runs", (unsigned long long)r->cost.run_cnt);
	if (r->cost.have_run_ns && r->cost.run_cnt && emulation_counts_instructions())
		fprintf(f, ", %llu instr in them (%.0f instr per run)",
			(unsigned long long)r->cost.run_ns,
			(double)r->cost.run_ns / (double)r->cost.run_cnt);
	else if (r->cost.have_run_ns && r->cost.run_cnt)
		fprintf(f, ", %.3f s in them (%.0f ns per run)",
			(double)r->cost.run_ns / 1e9,
			(double)r->cost.run_ns / (double)r->cost.run_cnt);
	fputc('\n', f);
}

static void text_warnings(const struct probe_result *r, FILE *f)
{
	struct sums s = sum_classes(r, ALL_CLASSES);

	if (s.foreign)
		fprintf(f, "warning: %llu exits met a taskstats listener not "
			"declared with --listener-pid: another collector runs; "
			"a \"no listener\" measurement is tainted\n",
			(unsigned long long)s.foreign);
	if (r->c.rq_mismatch)
		fprintf(f, "warning: %llu exits: listener state unknown (counted "
			"as no listener)\n", (unsigned long long)r->c.rq_mismatch);
	if (r->c.samples_lost)
		fprintf(f, "warning: %llu measurements lost (map full or busy)\n",
			(unsigned long long)r->c.samples_lost);
	if (r->c.track_full)
		fprintf(f, "warning: %llu descendants not tracked (map full)\n",
			(unsigned long long)r->c.track_full);
}

static void text_header(const struct probe_result *r, FILE *f)
{
	if (!emulation_counts_instructions()) {
		fprintf(f, "taskstats_exit() CPU per exit, ns (95%% interval):\n");
		return;
	}
	if (!headline_mode(r)) {
		fprintf(f, "taskstats_exit() CPU per exit, instr (95%% interval):\n");
		return;
	}
	fprintf(f, "taskstats_exit() instr per exit: the mode (the common "
		"path's exact count), the calls at, below and above it "
		"(above: interrupted or a slow path), the mean (95%% interval):\n"
		"  %-22s %9s %9s %9s %9s %9s %9s\n", "", "exits", "mode",
		"at", "below", "above", "mean");
}

void probe_report_text(const struct probe_result *r, FILE *f)
{
	struct sums s = sum_classes(r, ALL_CLASSES);

	fprintf(f, "exitprobe: method %s (%s)", method_name(r->method),
		r->reason);
	if (r->method == METHOD_SAMPLE && emulation_counts_instructions())
		fprintf(f, ", period %llu instr", (unsigned long long)r->period_ns);
	else if (r->method == METHOD_SAMPLE)
		fprintf(f, ", period %llu us",
			(unsigned long long)(r->period_ns / 1000));
	fprintf(f, ", %.1f s\n", r->seconds);
	if (emulation_name())
		fprintf(f, "WARNING: " EMULATED_NOTE "\n", emulation_name());
	if (emulation_counts_instructions())
		fprintf(f, "the clock counts instructions: every figure below is a "
			"count of guest instructions (instr), not a time\n");
	fprintf(f, "exits %llu: tgid on %llu (%.2f%%), listener %llu (%.2f%%), "
		"foreign listener %llu\n", (unsigned long long)s.exits,
		(unsigned long long)sum_classes(r, 0xa).exits,
		pct(sum_classes(r, 0xa).exits, s.exits),
		(unsigned long long)sum_classes(r, 0xc).exits,
		pct(sum_classes(r, 0xc).exits, s.exits),
		(unsigned long long)s.foreign);
	text_header(r, f);
	for (unsigned c = 0; c < PROBE_NCLASS; c++)
		text_row(r, f, class_labels[c], 1u << c);
	text_row(r, f, "all", ALL_CLASSES);
	text_callees(r, f);
	text_cost(r, f);
	text_warnings(r, f);
}
