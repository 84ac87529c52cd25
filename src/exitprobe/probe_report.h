/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exitprobe's results: the --summary file (keys in probe_summary.h) and
 * the report for people. */
#ifndef EXITPROBE_PROBE_REPORT_H
#define EXITPROBE_PROBE_REPORT_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdio.h>

#include "probe_abi.h"
#include "probe_bpf.h"
#include "kv.h"
#include "probe_est.h"

struct probe_result {
	enum probe_method method;
	const char *reason;
	__u64 period_ns;	/* sample */
	double seconds;		/* measured wall time */
	int nev;		/* samplers */
	struct probe_counters c;
	struct probe_cost cost;
	const struct probe_exact *exact;	/* fentry; NULL when unread */
};


/* Build the key=value text; 0 or -ENOMEM. */
int probe_report_summary_text(const struct probe_result *r, struct kvbuf *kb);
int probe_report_summary(const struct probe_result *r, const char *path);
void probe_report_text(const struct probe_result *r, FILE *f);

#endif
