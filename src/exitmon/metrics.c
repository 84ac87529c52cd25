/* Metrics as Prometheus text; names are documented in exitmon(8). */
#include "metrics.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "safe.h"

struct mbuf {
	char buf[8192];
	size_t len;
};

static void put(struct mbuf *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct mbuf *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (m->len >= sizeof(m->buf))
		return;
	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->len, sizeof(m->buf) - m->len, fmt, ap);
	va_end(ap);
	m->len += n > 0 ? (size_t)n : 0;
}

static void counter(struct mbuf *m, const char *name, const char *help,
		    uint64_t v)
{
	put(m, "# HELP exitmon_%s %s\n# TYPE exitmon_%s counter\n"
	    "exitmon_%s %" PRIu64 "\n", name, help, name, name, v);
}

/* Fixed-point, never %g: a Unix time or a byte count must come out exact
 * (1.79623e+09 is thousands of seconds off). */
static void gauge(struct mbuf *m, const char *name, const char *help, double v)
{
	put(m, "# HELP exitmon_%s %s\n# TYPE exitmon_%s gauge\n"
	    "exitmon_%s %.6f\n", name, help, name, name, v);
}

static void gauge_u64(struct mbuf *m, const char *name, const char *help,
		      uint64_t v)
{
	put(m, "# HELP exitmon_%s %s\n# TYPE exitmon_%s gauge\n"
	    "exitmon_%s %" PRIu64 "\n", name, help, name, name, v);
}

int metrics_write(const char *path, const struct mon_counters *n,
		  const struct metrics_gauges *g)
{
	struct mbuf *m = calloc(1, sizeof(*m));
	int r;

	if (!m)
		return -ENOMEM;
	put(m, "# HELP exitmon_records_total Exit records received, by type.\n"
	    "# TYPE exitmon_records_total counter\n"
	    "exitmon_records_total{type=\"pid\"} %" PRIu64 "\n"
	    "exitmon_records_total{type=\"tgid\"} %" PRIu64 "\n",
	    n->records_pid, n->records_tgid);
#define METRIC(name, metric, help) \
	if (metric[0]) \
		counter(m, metric, help, n->name);
	MON_COUNTERS(METRIC)
#undef METRIC
	gauge(m, "record_rate", "Records received per second over the last stats interval.", g->record_rate);
	gauge_u64(m, "receive_queue_bytes", "Bytes waiting in the socket receive queue.", (uint64_t)g->queue_bytes);
	gauge_u64(m, "receive_buffer_bytes", "The socket receive buffer size.", (uint64_t)g->rcvbuf_bytes);
	gauge(m, "receive_queue_fill_ratio", "Receive queue fill, 0 to 1.",
	      g->rcvbuf_bytes > 0 ? g->queue_bytes / g->rcvbuf_bytes : 0);
	put(m, "# HELP exitmon_cpu_seconds_total CPU time used by the collector.\n"
	    "# TYPE exitmon_cpu_seconds_total counter\n"
	    "exitmon_cpu_seconds_total{mode=\"user\"} %.6f\n"
	    "exitmon_cpu_seconds_total{mode=\"system\"} %.6f\n",
	    g->cpu_user, g->cpu_sys);
	gauge(m, "start_time_seconds", "Unix time the collector started.", g->start_time);
	put(m, "# HELP exitmon_run_info The run id that the records' run column holds.\n"
	    "# TYPE exitmon_run_info gauge\n"
	    "exitmon_run_info{run=\"%s\"} 1\n", g->run ? g->run : "");
	gauge_u64(m, "last_seq", "The last seq given to a record of this run (written or counted unwritten).", g->last_seq);
	r = safe_replace(path, m->buf, m->len, SAFE_MODE_PUBLIC);
	free(m);
	return r;
}
