/* The collector's life: start, verify, loop, stop.  The receive work is
 * done by the shards' threads; this thread owns signals, timers and
 * reports. */
#include "monitor.h"
#include "clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "caps.h"
#include "kvfile.h"
#include "log.h"
#include "metrics.h"
#include "notify.h"
#include "paths.h"
#include "pidfile.h"
#include "privs.h"
#include "report.h"
#include "safeopen.h"
#include "shard.h"

/* Signal flags, set by the handler, consumed by the loop. */
static volatile sig_atomic_t mon_stop, mon_reopen, mon_print_stats;

#define SELFCHECK_TIMEOUT_MS 2000
#define TICK_MS 50
/* How long the end of a run waits for a slow reader of the output. */
#define OUTPUT_DRAIN_MS 2000

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		mon_reopen = 1;
	else if (sig == SIGUSR1)
		mon_print_stats = 1;
	else
		mon_stop = 1;
}

void mon_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: waits end early */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);	/* a gone reader is a counted error */
}

struct mon {
	const struct mon_config *cfg;
	struct output out;
	struct capture_writer *cap;
	struct shard *shards;
	unsigned n_opened;
	atomic_ullong taken;
	struct mon_counters total;	/* summed from the shards */
	uint16_t version;
	double t0, start_unix, last_stats, last_metrics;
	uint64_t records_at_stats, records_at_metrics;
	struct pidfile pidfile;
	bool out_open;			/* m->out holds an open output */
	int out_err;			/* output error last reported */
	int cap_err;			/* capture error last reported */
};

/* The collector's wiring, for live shards and replay alike. */
static void collector_wiring(struct mon *m, bool live,
			     struct collector_setup *w)
{
	w->filter = &m->cfg->filter;
	w->out = &m->out;
	w->cap = m->cap;
	w->limit = m->cfg->count;
	w->taken = &m->taken;
	w->self_tgid = live ? getpid() : 0;
}

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

/* --- start-up: each failure maps to one message and one exit status --- */

static int open_pidfile(struct mon *m)
{
	long holder;
	int r = pidfile_lock(&m->pidfile, m->cfg->pidfile, &holder);

	if (r == -EAGAIN && holder)
		warnmsg("another exitmon (pid %ld) holds the pid file %s: stop "
			"it first, or give this one its own --pidfile",
			holder, m->cfg->pidfile);
	else if (r == -EAGAIN)
		warnmsg("another exitmon holds the pid file %s: stop it first, "
			"or give this one its own --pidfile", m->cfg->pidfile);
	else if (r < 0)
		warnmsg("cannot open pid file %s: %s", m->cfg->pidfile,
			safe_strerror(-r));
	return r == -EAGAIN ? EXIT_RUNTIME : r < 0 ? EXIT_OUTPUT : 0;
}

/* Every file, opened as the user that will write it, before registering;
 * the checks run again once the files exist, so two spellings of one new
 * file are caught too. */
static int open_sinks(struct mon *m)
{
	const struct mon_config *cfg = m->cfg;
	unsigned i;
	int r;

	if ((r = paths_distinct(cfg)) || (r = paths_check_replaced(cfg)))
		return r;
	if (cfg->pidfile && (r = open_pidfile(m)))
		return r;
	if (cfg->capture && (r = capture_open(cfg->capture, &m->cap)) < 0) {
		warnmsg("cannot open capture file %s: %s", cfg->capture,
			r == -EINVAL ? "it exists and is not a netlink pcap "
			"capture; choose a new file" : safe_strerror(-r));
		return EXIT_OUTPUT;
	}
	for (i = 0; i < m->n_opened; i++)	/* opened after the shards */
		if (collector_capture_to(&m->shards[i].col, m->cap) < 0) {
			warnmsg("out of memory");
			return EXIT_RUNTIME;
		}
	if ((r = paths_distinct(cfg)))
		return r;
	m->out_open = true;	/* set up even when the open fails */
	if ((r = output_open(&m->out, cfg->output, cfg->fmt, cfg->cols)) < 0) {
		warnmsg("cannot open output %s: %s; choose a writable file with -o",
			cfg->output ? cfg->output : "(stdout)", safe_strerror(-r));
		return EXIT_OUTPUT;
	}
	if (m->out.repaired)
		warnmsg("%s ended in a partial record (%llu bytes), cut off "
			"before appending", cfg->output,
			(unsigned long long)m->out.repaired);
	return paths_distinct(cfg);
}

/* A start that failed leaves no file it created behind. */
static void remove_created(struct mon *m)
{
	dev_t dev;
	ino_t ino;

	if (m->out_open && m->out.created)
		safe_unlink_same(m->cfg->output, m->out.dev, m->out.ino);
	if (m->cap && capture_identity(m->cap, &dev, &ino))
		safe_unlink_same(m->cfg->capture, dev, ino);
}

static int no_capability(void)
{
	warnmsg("registering the taskstats listener needs CAP_NET_ADMIN: run "
		"as root, grant it with `setcap cap_net_admin+ep exitmon`, or use "
		"the exitmon.service unit");
	return EXIT_NOPERM;
}

static int explain_register_error(const struct shard *s, int r)
{
	const char *ack = s->ts.ack_msg[0] ? s->ts.ack_msg : NULL;
	const char *sep = ack ? ": " : "";

	if (!ack)
		ack = "";
	if (r == -EPERM && !caps_have_net_admin())
		return no_capability();
	if (r == -EPERM) {
		warnmsg("the kernel refused registration (EPERM)%s%s: exitmon must "
			"run in the initial user namespace (not in a rootless "
			"container or under systemd PrivateUsers=)", sep, ack);
		return EXIT_NAMESPACE;
	}
	if (r == -EINVAL) {
		warnmsg("the kernel refused registration (EINVAL)%s%s: exitmon must "
			"run in the initial PID namespace (on the host, or a "
			"container started with --pid=host)", sep, ack);
		return EXIT_NAMESPACE;
	}
	if (r == -ERANGE) {
		warnmsg("the kernel refused cpu list %s (ERANGE)%s%s: give CPUs "
			"from /sys/devices/system/cpu/possible", s->cpulist, sep, ack);
		return EXIT_CPUMASK;
	}
	warnmsg("registering the taskstats listener failed: %s%s%s",
		strerror(-r), sep, ack);
	return EXIT_RUNTIME;
}

static int open_shards(struct mon *m)
{
	struct collector_setup w;
	unsigned i;
	int r;

	if (!caps_have_net_admin())
		return no_capability();
	m->shards = calloc(m->cfg->shards, sizeof(*m->shards));
	if (!m->shards)
		return EXIT_RUNTIME;
	collector_wiring(m, true, &w);
	for (i = 0; i < m->cfg->shards; i++) {
		r = shard_open(&m->shards[i], m->cfg, i, &w);
		m->n_opened = i + 1;
		if (r == -ENOENT) {
			warnmsg("the kernel has no TASKSTATS generic netlink family: "
				"it needs CONFIG_TASKSTATS=y");
			return EXIT_NOFAMILY;
		}
		if (r < 0) {
			warnmsg("cannot open a generic netlink socket: %s",
				strerror(-r));
			return EXIT_RUNTIME;
		}
	}
	return 0;
}

/* After the sockets exist and before registering: keep CAP_NET_ADMIN only. */
static int drop_privileges(const struct mon *m)
{
	const char *what = "";
	int r;

	if (geteuid() != 0 && !m->cfg->user && caps_only_net_admin())
		return 0;
	if ((r = privs_drop(m->cfg->user, &what)) < 0) {
		warnmsg("cannot drop privileges: failed to %s: %s", what,
			strerror(-r));
		return EXIT_RUNTIME;
	}
	return 0;
}

static int register_shards(struct mon *m)
{
	unsigned i;
	int r;

	for (i = 0; i < m->n_opened; i++) {
		struct shard *s = &m->shards[i];

		if ((r = shard_set_rcvbuf(s)) < 0)
			warnmsg("cannot set the receive buffer to %llu bytes: %s",
				(unsigned long long)m->cfg->rcvbuf, strerror(-r));
		if ((r = shard_register(s)) < 0)
			return explain_register_error(s, r);
	}
	return 0;
}

static int self_check(struct mon *m)
{
	unsigned i;

	for (i = 0; i < m->n_opened && !mon_stop; i++) {
		int r = shard_self_check(&m->shards[i], SELFCHECK_TIMEOUT_MS,
					 &mon_stop);

		if (r < 0) {
			warnmsg("self-check: cannot run a thread on CPUs %s (%s); "
				"--no-self-check skips this test",
				m->shards[i].cpulist, strerror(-r));
			return EXIT_RUNTIME;
		}
		if (r == 0 && !mon_stop) {
			warnmsg("registered, but no exit record arrived within "
				"%d ms: exitmon must run in the initial network "
				"namespace (not in a container network or under "
				"systemd PrivateNetwork=); --no-self-check skips "
				"this test", SELFCHECK_TIMEOUT_MS);
			return EXIT_DEAF;
		}
	}
	return 0;
}

static int write_pidfile(struct mon *m)
{
	int r = pidfile_write(&m->pidfile);

	if (r < 0) {
		warnmsg("cannot write pid file %s: %s", m->cfg->pidfile,
			strerror(-r));
		return EXIT_OUTPUT;
	}
	return 0;
}

static int start(struct mon *m)
{
	unsigned i;
	int r;

	if ((r = open_shards(m)) || (r = drop_privileges(m)) ||
	    (r = open_sinks(m)) || (r = register_shards(m)))
		return r;
	m->t0 = m->last_stats = m->last_metrics = mono_s();
	m->start_unix = real_s();
	if (m->cfg->self_check && (r = self_check(m)))
		return r;
	for (i = 0; i < m->n_opened; i++)
		if ((r = shard_start(&m->shards[i])) < 0) {
			warnmsg("cannot start a receive thread: %s", strerror(-r));
			return EXIT_RUNTIME;
		}
	if (m->cfg->pidfile && (r = write_pidfile(m)))
		return r;
	notify_systemd("READY=1");
	return 0;
}

/* --- the main thread's loop: timers and signals --- */

static void write_metrics(struct mon *m, double now)
{
	struct metrics_gauges g = { 0 };
	const struct mon_counters *n = gather(m);
	struct run_info ri = { 0 };
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
	if ((r = metrics_write(m->cfg->metrics, n, &g)) < 0)
		warnmsg("cannot write metrics %s: %s", m->cfg->metrics,
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
	warnmsg("%s was deleted while open: the %llu records written to it "
		"are lost (counted as unwritten)", m->cfg->output,
		(unsigned long long)lost);
}

/* One line when writing starts failing, one when it works again. */
static void watch_output(struct mon *m)
{
	int e = output_error(&m->out);
	const char *name = m->cfg->output ? m->cfg->output : "standard output";

	if (e && e != m->out_err)
		warnmsg("writing %s failed: %s; records are counted as unwritten "
			"until it works again", name, strerror(-e));
	else if (!e && m->out_err)
		warnmsg("writing %s works again", name);
	m->out_err = e;
}

static void watch_capture(struct mon *m)
{
	int e = m->cap ? capture_error(m->cap) : 0;

	if (e && e != m->cap_err)
		warnmsg("writing capture %s failed: %s; packets are counted as "
			"capture_errors until it works again", m->cfg->capture,
			strerror(-e));
	else if (!e && m->cap_err)
		warnmsg("writing capture %s works again", m->cfg->capture);
	m->cap_err = e;
}

static void tick(struct mon *m, double now)
{
	const struct mon_config *cfg = m->cfg;
	int r;

	watch_output(m);
	watch_capture(m);

	if (mon_reopen) {
		uint64_t lost;

		mon_reopen = 0;
		if ((r = output_reopen(&m->out, &lost)) < 0)
			warnmsg("cannot reopen %s: %s; still writing to the file "
				"opened before", cfg->output, safe_strerror(-r));
		if (lost)
			warn_deleted(m, lost);
	}
	if (mon_print_stats || (cfg->stats_s > 0 && now - m->last_stats >= cfg->stats_s)) {
		mon_print_stats = 0;
		print_stats(m, now);
	}
	if (cfg->metrics && now - m->last_metrics >=
	    (cfg->stats_s > 0 ? cfg->stats_s : DEFAULT_METRICS_S))
		write_metrics(m, now);
	if (cfg->duration_s > 0 && now - m->t0 >= cfg->duration_s)
		mon_stop = 1;
	if (cfg->count && atomic_load(&m->taken) >= cfg->count)
		mon_stop = 1;
}

static void main_loop(struct mon *m)
{
	struct timespec t = { 0, TICK_MS * 1000000L };
	unsigned i;

	if (m->cfg->metrics)
		write_metrics(m, mono_s());
	while (!mon_stop) {
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
	report_fill_usage(ri);
	report_final(n, ri);
	if (n->unwritten)
		warnmsg("%llu records could not be written (%s)",
			(unsigned long long)n->unwritten,
			m->out.ever_err ? strerror(-m->out.ever_err)
					: "the reader did not keep up");
	if (m->cfg->summary && (r = report_summary(m->cfg->summary, n, ri)) < 0) {
		warnmsg("cannot write summary %s: %s", m->cfg->summary,
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
	status = start(&m);
	if (status == 0)
		main_loop(&m);
	finish(&m, &ri);
	if (status == 0) {
		status = report(&m, &ri, status);
	} else {
		if (m.out_open)
			output_discard(&m.out);	/* no header without records */
		remove_created(&m);
	}
	cleanup(&m);
	return status;
}

/* Every packet of the capture through the collector; an oversized one is
 * skipped and counted, an empty one counted malformed (as exitstat does),
 * a cut-off last one ends the file. */
static void replay_packets(struct capture_reader *rd, struct collector *col,
			   const char *path)
{
	uint64_t oversized = 0;
	const void *msg;
	size_t len;
	int r;

	while ((r = capture_read_next(rd, &msg, &len)) != 0 &&
	       r != -EBADMSG && !mon_stop && !collector_done(col)) {
		if (r > 0)
			collector_datagram(col, msg, len, 0);
		else if (r == -ENOMSG)
			col->n.malformed++;
		else
			oversized++;
	}
	if (oversized) {
		warnmsg("capture %s: %llu packets larger than %d bytes skipped "
			"(counted as truncated)", path,
			(unsigned long long)oversized, CAPTURE_SNAPLEN);
		col->n.truncated += oversized;
	}
	if (r == -EBADMSG) {
		warnmsg("capture %s ends in a partial packet (ignored)",
			path);
		col->n.truncated++;
	}
	collector_push(col);
}

/* Replay through the collector, then report; an exit status. */
static int replay_run(struct mon *m, struct capture_reader *rd)
{
	struct run_info ri = { 0 };
	struct collector_setup w;
	struct collector col;
	int status = 0, r;

	collector_wiring(m, false, &w);
	if (collector_init(&col, &w) < 0) {
		warnmsg("out of memory");
		return EXIT_RUNTIME;
	}
	m->t0 = mono_s();
	replay_packets(rd, &col, m->cfg->replay);
	output_drain(&m->out, OUTPUT_DRAIN_MS);
	ri.seconds = mono_s() - m->t0;
	output_counts(&m->out, &col.n.written, &col.n.unwritten);
	ri.struct_version = col.last_version;
	report_fill_usage(&ri);
	report_final(&col.n, &ri);
	if (m->cfg->summary &&
	    (r = report_summary(m->cfg->summary, &col.n, &ri)) < 0) {
		warnmsg("cannot write summary %s: %s", m->cfg->summary,
			safe_strerror(-r));
		status = EXIT_OUTPUT;
	}
	collector_free(&col);
	return status;
}

int mon_replay(const struct mon_config *cfg)
{
	struct capture_reader *rd;
	struct mon m;
	int r, status;

	memset(&m, 0, sizeof(m));
	m.cfg = cfg;
	if ((r = capture_read_open(cfg->replay, &rd)) < 0) {
		warnmsg("cannot read capture %s: %s", cfg->replay,
			r == -EINVAL ? "not a netlink pcap capture" : strerror(-r));
		return EXIT_USAGE;
	}
	if ((status = open_sinks(&m)) == 0)
		status = replay_run(&m, rd);
	capture_read_close(rd);
	output_close(&m.out);
	return status;
}
