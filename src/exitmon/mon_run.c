// SPDX-License-Identifier: GPL-2.0-or-later
/* The collector's life: start, verify, loop, stop.  The receive work is
 * done by the shards' threads; this thread owns signals, timers and
 * reports.  Start-up and its failures are in mon_start.c, --replay in
 * mon_replay.c. */
#include "mon_run.h"
#include "clock.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "log.h"
#include "metrics.h"
#include "mon_signal.h"
#include "mon_sinks.h"
#include "mon_start.h"
#include "mon_state.h"
#include "notify.h"
#include "pidfile.h"
#include "report.h"
#include "safe.h"
#include "shard.h"

#define TICK_MS 50
/* Metrics are refreshed every --stats interval, or this often. */
#define DEFAULT_METRICS_S 10.0

/* Refresh m->total from what the shards published and the output. */
static const struct mon_counters *gather(struct mon *m)
{
	unsigned i;

	memset(&m->total, 0, sizeof(m->total));
	for (i = 0; i < m->n_opened; i++)
		shard_read(&m->shards[i], &m->total, &m->version);
	output_counts(&m->out, &m->total.written, &m->total.unwritten);
	return &m->total;
}

/* --- the main thread's loop: timers and signals --- */

static void write_metrics(struct mon *m, double now)
{
	struct metrics_gauges g = { 0 };
	const struct mon_counters *n = gather(m);
	struct run_info ri = { 0 };
	struct collector *col[MAX_SHARDS];
	double dt = now - m->last_metrics;
	unsigned i;
	int r;

	for (i = 0; i < m->n_opened; i++) {
		uint32_t buf = 0;

		g.queue_bytes += shard_queue_bytes(&m->shards[i], &buf);
		g.rcvbuf_bytes += buf;
	}
	report_fill_usage(&ri);
	g.record_rate = dt > 0 ? (double)(m->total.records - m->records_at_metrics) / dt : 0;
	g.cpu_user = ri.cpu_user;
	g.cpu_sys = ri.cpu_sys;
	g.start_time = m->start_unix;
	g.run = m->run;
	g.last_seq = atomic_load(&m->seq);
	/* The records' counts; commands are let in from the first interval's
	 * end on (the write at start has seen only start-up's exits). */
	for (i = 0; i < m->n_opened && i < MAX_SHARDS; i++)
		col[i] = &m->shards[i].col;
	if (mon_state_acct(m, col, i, true, m->acct_ready) < 0)
		log_warn("cannot count the records for metrics: out of memory");
	if ((r = metrics_write(m->cfg->metrics, n, &g,
			       m->acct_ready ? &m->acct : NULL)) < 0)
		log_warn("cannot write metrics %s: %s", m->cfg->metrics,
			strerror(-r));
	m->last_metrics = now;
	m->records_at_metrics = m->total.records;
}

static void print_stats(struct mon *m, double now)
{
	const struct mon_counters *n = gather(m);
	double dt = now - m->last_stats;

	report_stats_line(n, now - m->t0, dt > 0 ?
			  (double)(m->total.records - m->records_at_stats) / dt : 0);
	m->last_stats = now;
	m->records_at_stats = m->total.records;
}

static void warn_deleted(const struct mon *m, uint64_t lost)
{
	log_warn("%s was deleted while open: the %llu records written to it "
		"are lost (counted as unwritten)", m->cfg->output,
		(unsigned long long)lost);
}

/* One line when writing starts failing, one when it works again. */
static void watch_output(struct mon *m)
{
	int e = output_error(&m->out);
	const char *name = m->cfg->output ? m->cfg->output : "standard output";

	if (e && e != m->out_err)
		log_warn("writing %s failed: %s; records are counted as unwritten "
			"until it works again", name, strerror(-e));
	else if (!e && m->out_err)
		log_warn("writing %s works again", name);
	m->out_err = e;
}

static void watch_capture(struct mon *m)
{
	int e = m->cap ? capture_error(m->cap) : 0;

	if (e && e != m->cap_err)
		log_warn("writing capture %s failed: %s; packets are counted as "
			"capture_errors until it works again", m->cfg->capture,
			strerror(-e));
	else if (!e && m->cap_err)
		log_warn("writing capture %s works again", m->cfg->capture);
	m->cap_err = e;
}

static void tick(struct mon *m, double now)
{
	const struct mon_config *cfg = m->cfg;
	int r;

	watch_output(m);
	watch_capture(m);

	if (mon_signal_reopen) {
		uint64_t lost;

		mon_signal_reopen = 0;
		if ((r = output_reopen(&m->out, &lost)) < 0)
			log_warn("cannot reopen %s: %s; still writing to the file "
				"opened before", cfg->output, output_strerror(-r));
		else if (m->out.older_header == OUTPUT_OLDER_APPEND)
			log_warn("%s %s", cfg->output, output_older_say(&m->out));
		if (lost)
			warn_deleted(m, lost);
	}
	if (mon_signal_stats || (cfg->stats_s > 0 && now - m->last_stats >= cfg->stats_s)) {
		mon_signal_stats = 0;
		print_stats(m, now);
	}
	if (cfg->metrics && now - m->last_metrics >=
	    (cfg->stats_s > 0 ? cfg->stats_s : DEFAULT_METRICS_S))
		write_metrics(m, now);
	if (cfg->duration_s > 0 && now - m->t0 >= cfg->duration_s)
		mon_signal_stop = 1;
	if (cfg->count && atomic_load(&m->taken) >= cfg->count)
		mon_signal_stop = 1;
}

static void main_loop(struct mon *m)
{
	struct timespec t = { 0, TICK_MS * 1000000L };
	unsigned i;

	if (m->cfg->metrics)
		write_metrics(m, mono_s());
	while (!mon_signal_stop) {
		nanosleep(&t, NULL);	/* a signal ends it early */
		tick(m, mono_s());
	}
	for (i = 0; i < m->n_opened; i++)
		shard_stop(&m->shards[i]);
	notify_systemd("STOPPING=1");
}

/* --- shutdown: join, drain, deregister, drain, flush, report --- */

static void finish(struct mon *m, struct run_info *ri)
{
	uint64_t lost;
	unsigned i;

	/* Every receive thread ends before any shard deregisters: a thread
	 * exits on any CPU, and its record goes to that CPU's shard. */
	for (i = 0; i < m->n_opened; i++)
		shard_join(&m->shards[i]);
	for (i = 0; i < m->n_opened; i++)
		shard_finish(&m->shards[i]);
	if (m->out_open) {
		output_drain(&m->out, OUTPUT_DRAIN_MS);
		if ((lost = output_check_deleted(&m->out)))
			warn_deleted(m, lost);
	}
	ri->seconds = mono_s() - m->t0;
	ri->interval_ms = m->cfg->interval_ms;
	ri->wakeup = m->cfg->wakeup;
	ri->cpulist = m->cfg->cpulist;
	ri->shards = m->cfg->shards;
	for (i = 0; i < m->n_opened; i++)
		ri->rcvbuf += m->shards[i].rcvbuf;
	if (m->cfg->metrics && m->t0 > 0)
		write_metrics(m, mono_s());
}

static int report(struct mon *m, struct run_info *ri, int status)
{
	const struct mon_counters *n = gather(m);
	int r;

	ri->struct_version = m->version;
	ri->run = m->run;
	ri->last_seq = atomic_load(&m->seq);
	report_fill_usage(ri);
	report_final(n, ri);
	if (n->unwritten)
		log_warn("%llu records could not be written (%s)",
			(unsigned long long)n->unwritten,
			m->out.ever_err ? strerror(-m->out.ever_err)
					: "the reader did not keep up");
	if (m->cfg->summary && (r = report_summary(m->cfg->summary, n, ri)) < 0) {
		log_warn("cannot write summary %s: %s", m->cfg->summary,
			safe_strerror(-r));
		return status ? status : EXIT_OUTPUT;
	}
	return status;
}

static void cleanup(struct mon *m)
{
	unsigned i;

	pidfile_release(&m->pidfile);
	for (i = 0; i < m->n_opened; i++)
		shard_close(&m->shards[i]);
	free(m->shards);
	if (m->acct_ready)
		acct_sum_free(&m->acct);
	if (m->out_open)
		output_close(&m->out);
	capture_close(m->cap);
}

int mon_run(const struct mon_config *cfg)
{
	struct mon m;
	struct run_info ri = { 0 };
	int status;

	memset(&m, 0, sizeof(m));
	m.cfg = cfg;
	m.pidfile.fd = -1;
	status = mon_start(&m);
	if (status == 0)
		main_loop(&m);
	finish(&m, &ri);
	if (status == 0) {
		status = report(&m, &ri, status);
	} else {
		if (m.out_open)
			output_discard(&m.out);	/* no header without records */
		mon_sinks_remove_created(&m);
	}
	cleanup(&m);
	return status;
}
