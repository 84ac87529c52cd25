/* exitprobe's results: the --summary file (keys in probe_summary.h) and
 * the report for people. */
#ifndef EXITPROBE_REPORT_H
#define EXITPROBE_REPORT_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdio.h>

#include "probe_abi.h"
#include "probe_bpf.h"
#include "kvfile.h"
#include "probe_estimate.h"

struct probe_result {
	enum probe_method method;
	const char *reason;
	__u64 period_ns;	/* sample */
	double seconds;		/* measured wall time */
	int nev;		/* samplers */
	struct probe_counters c;
	struct probe_cost cost;
};

/* "tgid_on_listener" and so on for class cls (PROBE_CLASS_* bits). */
const char *probe_report_class_key(unsigned cls);

/* Estimate over the classes in mask (bit i = class i): 0, or -EINVAL when
 * they had no exits. */
int probe_report_estimate(const struct probe_result *r, unsigned mask,
		    struct probe_est *e);

/* Build the key=value text; 0 or -ENOMEM. */
int probe_report_summary_text(const struct probe_result *r, struct kvbuf *kb);
int probe_report_summary(const struct probe_result *r, const char *path);
void probe_report_text(const struct probe_result *r, FILE *f);

#endif
