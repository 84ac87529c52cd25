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

int sweep_probe_apply(const struct kvmap *kv, double *v)
{
	double exits, x;

	if (kv_map_double(kv, PROBE_KEY_EXITS, &exits) < 0 || exits < 0)
		return -EBADMSG;
	if (kv_map_double(kv, PROBE_KEY_NS_PER_EXIT, &x) == 0 && x >= 0)
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

	snprintf(buf, len, "%s%s%s%s%s%s", m ? m : "unknown method",
		 p ? ", period " : "", p ? p : "", p ? " us" : "",
		 why && *why ? ": " : "", why && *why ? why : "");
}
