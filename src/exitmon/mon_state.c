// SPDX-License-Identifier: GPL-2.0-or-later
/* What the files of the collector's life share: its wiring. */
#include "mon_state.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "mon_exit.h"
#include "runid.h"

/* The collector's wiring, for live shards and replay alike. */
void mon_state_wiring(struct mon *m, bool live,
		      struct collector_setup *w)
{
	w->filter = &m->cfg->filter;
	w->out = &m->out;
	w->cap = m->cap;
	w->limit = m->cfg->count;
	w->taken = &m->taken;
	w->self_tgid = live ? getpid() : 0;
	w->run = m->run;
	w->seq = &m->seq;
	w->metrics = m->cfg->metrics != NULL;
	w->metrics_commands = m->cfg->metrics_commands;
	w->metrics_locked = live;
}

int mon_state_acct(struct mon *m, struct collector *const *c, unsigned n,
		   bool locked, bool promote)
{
	struct acct *a[MAX_SHARDS];
	unsigned i, k = 0;

	for (i = 0; i < n && k < MAX_SHARDS; i++)
		if (c[i]->acct)
			a[k++] = c[i]->acct;
	if (!m->acct_ready) {
		if (acct_sum_init(&m->acct, m->cfg->metrics_commands, k) < 0)
			return -ENOMEM;
		m->acct_ready = true;
	}
	acct_merge(&m->acct, a, k, locked, promote);
	/* once a run: the metrics file's exitmon_sums_saturated says it after */
	if (m->acct.saturated && !m->acct_said_saturated) {
		log_warn("--metrics: a sum of seconds reached 2^64 ns and stays "
			 "there (exitmon_sums_saturated 1): it is a floor from now on");
		m->acct_said_saturated = true;
	}
	return 0;
}

int mon_state_run_id(struct mon *m, bool live)
{
	enum runid_source src;
	int r = runid_make(m->cfg->run_id, live, m->run, &src);

	if (r < 0) {
		log_warn("cannot make a run id: getrandom: %s", strerror(-r));
		return EXIT_RUNTIME;
	}
	atomic_init(&m->seq, 0);
	return 0;
}
