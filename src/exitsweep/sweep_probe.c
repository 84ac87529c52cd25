// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading exitprobe's summary. */
#include "sweep_probe.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_summary.h"

static const char *const mode_names[] = {
	[PROBE_OFF] = "off", [PROBE_AUTO] = "auto",
	[PROBE_FENTRY] = "fentry", [PROBE_SAMPLE] = "sample",
};

int sweep_probe_parse_mode(const char *s, enum sweep_probe *mode)
{
	for (size_t i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++)
		if (!strcmp(s, mode_names[i])) {
			*mode = (enum sweep_probe)i;
			return 0;
		}
	return -EINVAL;
}

const char *sweep_probe_method_arg(enum sweep_probe mode)
{
	return mode_names[mode];
}

const char *sweep_probe_unit(const struct kvmap *kv)
{
	const char *u = kv_map_get(kv, PROBE_KEY_UNIT);

	return u ? u : "ns";	/* exitprobe before the instruction clock */
}

/* The mode of the class most of the run's exits were in: the cell's
 * class (a thread run's few process exits, such as exitgen's own, are
 * another).  0, or -ENOENT when that class has no mode (its common
 * path beyond exitprobe's exact window, or no fentry). */
static int main_class_mode(const struct kvmap *kv, double *mode)
{
	static const char *const classes[] = {
		PROBE_CLASS_TGID_ON "_" PROBE_CLASS_NOLISTENER,
		PROBE_CLASS_TGID_OFF "_" PROBE_CLASS_NOLISTENER,
		PROBE_CLASS_TGID_ON "_" PROBE_CLASS_LISTENER,
		PROBE_CLASS_TGID_OFF "_" PROBE_CLASS_LISTENER,
	};
	double most = 0, n;
	const char *best = NULL;
	char key[96];

	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		snprintf(key, sizeof(key), "exits_%s", classes[i]);
		if (kv_map_double(kv, key, &n) == 0 && n > most) {
			most = n;
			best = classes[i];
		}
	}
	if (!best)
		return -ENOENT;
	snprintf(key, sizeof(key), "%s%s", PROBE_KEY_MODE_PREFIX, best);
	if (kv_map_double(kv, key, mode) < 0 || !(*mode >= 0))
		return -ENOENT;
	return 0;
}

/* The per-exit figure: the mode where exitprobe's headline is the mode
 * (the instruction clock, fentry: the common path's exact count, which
 * interrupted or slow calls cannot move, where they skew the mean),
 * else the mean.  -1 when there is neither. */
static double ts_per_exit(const struct kvmap *kv)
{
	const char *h = kv_map_get(kv, PROBE_KEY_HEADLINE);
	double x;

	if (h && !strcmp(h, "mode") && main_class_mode(kv, &x) == 0)
		return x;
	if (kv_map_double(kv, PROBE_KEY_NS_PER_EXIT, &x) == 0 && x >= 0)
		return x;
	return -1;
}

int sweep_probe_apply(const struct kvmap *kv, const char *unit, double *v)
{
	double exits, x;

	if (strcmp(sweep_probe_unit(kv), unit))
		return -EPROTO;
	if (kv_map_double(kv, PROBE_KEY_EXITS, &exits) < 0 || exits < 0)
		return -EBADMSG;
	if ((x = ts_per_exit(kv)) >= 0)
		v[M_TS_NS_PER_EXIT] = x;
	if (exits == 0)
		return 0;
	if (kv_map_double(kv, PROBE_KEY_EXITS_TGID_ON, &x) == 0 && x >= 0 && x <= exits)
		v[M_TGID_ON_SHARE] = x / exits;
	if (kv_map_double(kv, PROBE_KEY_EXITS_LISTENER, &x) == 0 && x >= 0 && x <= exits)
		v[M_LISTENER_SHARE] = x / exits;
	if (kv_map_double(kv, PROBE_KEY_EXITS_FOREIGN, &x) == 0 && x >= 0 && x <= exits)
		v[M_FOREIGN_EXITS] = x;
	if (kv_map_double(kv, PROBE_KEY_BPF_NS, &x) == 0 && x >= 0)
		v[M_PROBE_BPF_NS_PER_EXIT] = x / exits;
	if (kv_map_double(kv, PROBE_KEY_SAMPLES, &x) == 0 && x >= 0)
		v[M_PROBE_SAMPLES_PER_EXIT] = x / exits;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of n values (n >= 1), sorting them. */
static double median(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

int sweep_probe_cost_from(const double *alone, const double *probed,
			  unsigned blocks, struct sweep_probe_cost *pc)
{
	double a[2 * SWEEP_PROBE_BLOCKS], p[2 * SWEEP_PROBE_BLOCKS];
	double r[SWEEP_PROBE_BLOCKS];

	if (blocks < 1 || blocks > SWEEP_PROBE_BLOCKS)
		return -EINVAL;
	for (unsigned i = 0; i < 2 * blocks; i++)
		if (!(alone[i] > 0) || !(probed[i] > 0) || isinf(alone[i]) ||
		    isinf(probed[i]))
			return -EINVAL;
	for (unsigned b = 0; b < blocks; b++) {
		pc->block[b] = r[b] = (probed[2 * b] + probed[2 * b + 1]) /
				      (alone[2 * b] + alone[2 * b + 1]);
		a[2 * b] = alone[2 * b];
		a[2 * b + 1] = alone[2 * b + 1];
		p[2 * b] = probed[2 * b];
		p[2 * b + 1] = probed[2 * b + 1];
	}
	pc->blocks = blocks;
	pc->ratio = median(r, blocks);
	pc->lo = r[0];
	pc->hi = r[blocks - 1];
	pc->alone_rate = median(a, 2 * blocks);
	pc->probed_rate = median(p, 2 * blocks);
	return 0;
}

void sweep_probe_cost_describe(const struct sweep_probe_cost *pc, char *buf,
			       size_t len)
{
	if (!pc->blocks) {
		snprintf(buf, len, "not measured%s%s", pc->why[0] ? ": " : "", pc->why);
		return;
	}
	snprintf(buf, len, "a flat-out thread exit loop ran at %.2f of its speed "
		 "under the probe (%u ABBA blocks of %llu exits: %.2f to %.2f; "
		 "%.0f exits/s alone, %.0f probed)", pc->ratio, pc->blocks,
		 (unsigned long long)pc->count, pc->lo, pc->hi, pc->alone_rate,
		 pc->probed_rate);
}

void sweep_probe_describe(const struct kvmap *kv, char *buf, size_t len)
{
	const char *m = kv_map_get(kv, PROBE_KEY_METHOD);
	const char *p = kv_map_get(kv, PROBE_KEY_PERIOD_US);
	const char *why = kv_map_get(kv, PROBE_KEY_METHOD_WHY);
	char period[64] = "";
	double us;

	/* period_us is in thousands of the summary's unit: under the
	 * instruction clock a count of instructions, never a time */
	if (p && !strcmp(sweep_probe_unit(kv), "instr") &&
	    kv_map_double(kv, PROBE_KEY_PERIOD_US, &us) == 0)
		snprintf(period, sizeof(period), ", period %.0f instr", us * 1000);
	else if (p)
		snprintf(period, sizeof(period), ", period %s us", p);
	snprintf(buf, len, "%s%s%s%s", m ? m : "unknown method", period,
		 why && *why ? ": " : "", why && *why ? why : "");
}
