/* What the files of the collector's life share: its wiring. */
#include "mon_state.h"

#include <unistd.h>

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
}
