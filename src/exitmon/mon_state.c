/* What the files of the collector's life share: its wiring. */
#include "mon_state.h"

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
