/* Reading exitprobe's summary. */
#include "sweep_probe.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
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
	return 0;
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
