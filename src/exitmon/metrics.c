// SPDX-License-Identifier: GPL-2.0-or-later
/* Metrics as Prometheus text; names are documented in exitmon(8). */
#include "metrics.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "format.h"
#include "safe.h"

/* The file as it is made; grows (the command series make it long).  A
 * failed allocation leaves oom set and the file unwritten. */
struct mbuf {
	char *buf;
	size_t len, cap;
	bool oom;
};

static void put(struct mbuf *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct mbuf *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = m->cap - m->len;
		char *b;

		if (m->oom)
			return;
		va_start(ap, fmt);
		n = vsnprintf(m->buf + m->len, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < room) {
			m->len += (size_t)n;
			return;
		}
		b = realloc(m->buf, 2 * m->cap + (size_t)n);
		if (!b) {
			m->oom = true;
			return;
		}
		m->buf = b;
		m->cap = 2 * m->cap + (size_t)n;
	}
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

size_t metrics_label(const char *comm, size_t len, char *buf, size_t cap)
{
	char text[8 * TS_COMM_LEN + 1];
	size_t i, k = 0;

	/* Text's form of a name is valid UTF-8 and one to one: every
	 * backslash it writes begins an escape (\\ \n \r \t \xNN). */
	format_comm(FMT_TEXT, comm, len, text, sizeof(text));
	/* A task named "other" is not the rest: its o as text never shows. */
	if (strcmp(text, "other") == 0)
		memcpy(text, "\\x6fther", sizeof("\\x6fther"));
	for (i = 0; text[i]; i++) {
		if (text[i] == '\\' || text[i] == '"') {
			if (k + 1 < cap)
				buf[k] = '\\';
			k++;
		}
		if (k + 1 < cap)
			buf[k] = text[i];
		k++;
	}
	if (cap)
		buf[k < cap ? k : cap - 1] = '\0';
	return k;
}

/* ns as seconds, exactly; trim: without trailing zeros (the le bounds). */
static const char *seconds(uint64_t ns, bool trim, char *buf, size_t cap)
{
	size_t n = (size_t)snprintf(buf, cap, "%" PRIu64 ".%09" PRIu64,
				    ns / 1000000000u, ns % 1000000000u);

	while (trim && n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (trim && n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	return buf;
}

static void help(struct mbuf *m, const char *name, const char *type,
		 const char *text)
{
	put(m, "# HELP exitmon_%s %s\n# TYPE exitmon_%s %s\n", name, text,
	    name, type);
}

/* One histogram's series; label: its other label (with a comma) or "". */
static void histogram(struct mbuf *m, const char *name, const char *label,
		      const struct acct_hist *h)
{
	char le[32], sum[32];
	uint64_t cum = 0;
	unsigned b;

	for (b = 0; b < ACCT_BUCKETS; b++) {
		cum += h->n[b];
		put(m, "exitmon_%s_bucket{%sle=\"%s\"} %" PRIu64 "\n", name,
		    label, seconds(acct_bucket_ns[b], true, le, sizeof(le)), cum);
	}
	cum += h->n[ACCT_BUCKETS];
	put(m, "exitmon_%s_bucket{%sle=\"+Inf\"} %" PRIu64 "\n", name, label, cum);
	/* The count is the +Inf bucket's, read once: never apart from it. */
	put(m, "exitmon_%s_sum%s%.*s%s %s\n", name, *label ? "{" : "",
	    *label ? (int)strlen(label) - 1 : 0, label, *label ? "}" : "",
	    seconds(h->sum_ns, false, sum, sizeof(sum)));
	put(m, "exitmon_%s_count%s%.*s%s %" PRIu64 "\n", name, *label ? "{" : "",
	    *label ? (int)strlen(label) - 1 : 0, label, *label ? "}" : "", cum);
}

/* The series of one command (comm: its label value, escaped). */
static void command(struct mbuf *m, const char *comm,
		    const struct acct_series *s, int what)
{
	char v[32];
	unsigned k;

	switch (what) {
	case 0:
		put(m, "exitmon_command_exits_total{comm=\"%s\"} %" PRIu64 "\n",
		    comm, s->exits);
		break;
	case 1:
		put(m, "exitmon_command_cpu_seconds_total{comm=\"%s\"} %s\n",
		    comm, seconds(s->cpu_ns, false, v, sizeof(v)));
		break;
	default:
		for (k = 0; k < ACCT_DELAYS; k++)
			put(m, "exitmon_command_delay_seconds_total{comm=\"%s\","
			    "delay=\"%s\"} %s\n", comm, acct_delay_names[k],
			    seconds(s->delay_ns[k], false, v, sizeof(v)));
	}
}

/* The records' own metrics (acct.h; names in exitmon(8)). */
static void records(struct mbuf *m, const struct acct_sum *a)
{
	static const char *const what[3][2] = {
		{ "command_exits_total", "Task exits (pid records that passed the filters), per command: the top commands by CPU over the run, the rest as comm=\"other\"." },
		{ "command_cpu_seconds_total", "User and system CPU of the exited tasks, per command." },
		{ "command_delay_seconds_total", "Time the exited tasks waited, per command and kind of delay (struct taskstats delay accounting)." },
	};
	char label[64], comm[8 * TS_COMM_LEN * 2 + 1];
	unsigned i, k;

	help(m, "exits_total", "counter", "Task exits (pid records that passed the filters), by how they ended: exit0, nonzero (exit code), signal, core (killed, core dumped).");
	for (k = 0; k < EXITCODE__COUNT; k++)
		put(m, "exitmon_exits_total{outcome=\"%s\"} %" PRIu64 "\n",
		    exitcode_names[k], a->outcome[k]);
	for (int w = 0; w < 3; w++) {
		help(m, what[w][0], "counter", what[w][1]);
		/* the shown, then the retired: frozen, never dropped */
		for (i = 0; i < a->n_shown + a->n_retired; i++) {
			const struct acct_comm *c = i < a->n_shown ? &a->shown[i] :
						    &a->retired[i - a->n_shown];

			metrics_label(c->comm, c->len, comm, sizeof(comm));
			command(m, comm, &c->s, w);
		}
		command(m, "other", &a->other, w);
	}
	help(m, "sums_saturated", "gauge", "1 once a sum of seconds here reached 2^64 ns (about 584 years) and stopped there instead of wrapping: it is then a floor, not the total; 0 otherwise.");
	put(m, "exitmon_sums_saturated %d\n", a->saturated ? 1 : 0);
	help(m, "commands_shown", "gauge", "Commands with series of their own (at most --metrics-commands; the rest are comm=\"other\").");
	put(m, "exitmon_commands_shown %u\n", a->n_shown);
	help(m, "commands_retired", "gauge", "Commands shown no longer (a heavier one took their place): their series stay, frozen; at most --metrics-commands, the lightest then folded into comm=\"other\".");
	put(m, "exitmon_commands_retired %u\n", a->n_retired);
	help(m, "exit_cpu_seconds", "histogram", "User and system CPU per task exit.");
	histogram(m, "exit_cpu_seconds", "", &a->cpu);
	help(m, "exit_delay_seconds", "histogram", "Time waited per task exit, by kind of delay.");
	for (k = 0; k < ACCT_DELAYS; k++) {
		snprintf(label, sizeof(label), "delay=\"%s\",", acct_delay_names[k]);
		histogram(m, "exit_delay_seconds", label, &a->delay[k]);
	}
}

int metrics_write(const char *path, const struct mon_counters *n,
		  const struct metrics_gauges *g, const struct acct_sum *a)
{
	struct mbuf mb = { .cap = 16384 }, *m = &mb;
	int r;

	m->buf = malloc(m->cap);
	if (!m->buf)
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
	if (a)
		records(m, a);
	r = m->oom ? -ENOMEM : safe_replace(path, m->buf, m->len, SAFE_MODE_PUBLIC);
	free(m->buf);
	return r;
}
