/* The collector's life: start, verify, loop, stop. */
#include "monitor.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "caps.h"
#include "genl.h"
#include "kvfile.h"
#include "log.h"
#include "metrics.h"
#include "notify.h"
#include "privs.h"
#include "receive.h"
#include "report.h"
#include "selfcheck.h"

volatile sig_atomic_t mon_stop, mon_reopen, mon_print_stats;

#define REQUEST_TIMEOUT_MS 5000
#define SELFCHECK_TIMEOUT_MS 2000

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

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

struct mon {
	const struct mon_config *cfg;
	struct ts_conn ts;
	struct receiver rx;
	struct output out;
	struct collector col;
	uint64_t rcvbuf;
	double t0, last_stats, last_drops, last_metrics;
	double start_unix;
	uint64_t records_at_last_metrics;
	uint64_t records_at_last_stats;
	bool pidfile_written;
};

static struct run_counts counts_of(const struct mon *m)
{
	return (struct run_counts){ &m->col.n, m->out.written, m->out.unwritten };
}

static void sync_drops(struct mon *m)
{
	if (receiver_update_drops(&m->rx) == 0)
		m->col.n.dropped = m->rx.drops;
}

/* --- start-up: each failure maps to one message and one exit status --- */

static int open_sinks(struct mon *m)
{
	const struct mon_config *cfg = m->cfg;
	int r = output_open(&m->out, cfg->output, cfg->fmt);

	if (r < 0) {
		warnmsg("cannot open output %s: %s; choose a writable file with -o",
			cfg->output ? cfg->output : "(stdout)", strerror(-r));
		return EXIT_OUTPUT;
	}
	if (cfg->capture && (r = capture_open(cfg->capture, &m->col.cap)) < 0) {
		warnmsg("cannot open capture file %s: %s", cfg->capture,
			strerror(-r));
		return EXIT_OUTPUT;
	}
	m->col.out = &m->out;
	m->col.filter = &cfg->filter;
	m->col.limit = cfg->count;
	return 0;
}

static int explain_register_error(struct mon *m, int r)
{
	const char *ack = m->ts.ack_msg[0] ? m->ts.ack_msg : NULL;

	if (r == -EPERM && !caps_have_net_admin()) {
		warnmsg("registering the taskstats listener needs CAP_NET_ADMIN: "
			"run as root, grant it with `setcap cap_net_admin+ep "
			"exitmon`, or use the exitmon.service unit");
		return EXIT_NOPERM;
	}
	if (r == -EPERM) {
		warnmsg("the kernel refused registration (EPERM)%s%s: exitmon must "
			"run in the initial user namespace (not in a rootless "
			"container or under systemd PrivateUsers=)",
			ack ? ": " : "", ack ? ack : "");
		return EXIT_NAMESPACE;
	}
	if (r == -EINVAL) {
		warnmsg("the kernel refused registration (EINVAL)%s%s: exitmon must "
			"run in the initial PID namespace (on the host, or a "
			"container started with --pid=host)",
			ack ? ": " : "", ack ? ack : "");
		return EXIT_NAMESPACE;
	}
	if (r == -ERANGE) {
		warnmsg("the kernel refused cpu list %s (ERANGE)%s%s: give CPUs "
			"from /sys/devices/system/cpu/possible",
			m->cfg->cpulist, ack ? ": " : "", ack ? ack : "");
		return EXIT_CPUMASK;
	}
	warnmsg("registering the taskstats listener failed: %s%s%s",
		strerror(-r), ack ? ": " : "", ack ? ack : "");
	return EXIT_RUNTIME;
}

static int open_listener(struct mon *m)
{
	int r;

	if (!caps_have_net_admin()) {
		warnmsg("registering the taskstats listener needs CAP_NET_ADMIN: "
			"run as root, grant it with `setcap cap_net_admin+ep "
			"exitmon`, or use the exitmon.service unit");
		return EXIT_NOPERM;
	}
	r = ts_open(&m->ts);
	if (r == -ENOENT) {
		warnmsg("the kernel has no TASKSTATS generic netlink family: it "
			"needs CONFIG_TASKSTATS=y");
		return EXIT_NOFAMILY;
	}
	if (r < 0) {
		warnmsg("cannot open a generic netlink socket: %s", strerror(-r));
		return EXIT_RUNTIME;
	}
	if (geteuid() == 0 || m->cfg->user || !caps_only_net_admin()) {
		const char *what = "";

		if ((r = privs_drop(m->cfg->user, &what)) < 0) {
			warnmsg("cannot drop privileges: failed to %s: %s", what,
				strerror(-r));
			return EXIT_RUNTIME;
		}
	}
	caps_net_admin_effective(true);	/* SO_RCVBUFFORCE passes rmem_max */
	r = socket_set_rcvbuf(m->ts.fd, m->cfg->rcvbuf, &m->rcvbuf);
	caps_net_admin_effective(false);
	if (r < 0)
		warnmsg("cannot set the receive buffer to %llu bytes: %s",
			(unsigned long long)m->cfg->rcvbuf, strerror(-r));
	if ((r = receiver_init(&m->rx, m->ts.fd)) < 0) {
		warnmsg("out of memory");
		return EXIT_RUNTIME;
	}
	caps_net_admin_effective(true);
	r = ts_register(&m->ts, m->cfg->cpulist, REQUEST_TIMEOUT_MS,
			collector_datagram, &m->col);
	caps_net_admin_effective(false);
	return r < 0 ? explain_register_error(m, r) : 0;
}

/* Wait (bounded) for the exit record of our own check thread. */
static bool wait_for_check_record(struct mon *m)
{
	double deadline = now_s() + SELFCHECK_TIMEOUT_MS / 1000.0;
	struct timespec tick = { 0, 5 * 1000 * 1000 };

	while (!m->col.watch_seen && now_s() < deadline && !mon_stop) {
		receiver_drain(&m->rx, collector_datagram, &m->col);
		if (!m->col.watch_seen)
			nanosleep(&tick, NULL);
	}
	return m->col.watch_seen;
}

static int self_check(struct mon *m)
{
	int cpu = cpuset_next(&m->cfg->cpus, 0);
	int attempt, r;

	for (attempt = 0; attempt < 3; attempt++) {
		/* Prefer a CPU we can run on: the first registered one that
		 * accepts our thread. */
		for (r = -EINVAL; cpu >= 0; cpu = cpuset_next(&m->cfg->cpus, (unsigned)cpu + 1))
			if ((r = selfcheck_spawn(cpu, &m->col.watch_tid)) == 0)
				break;
		if (r < 0) {
			warnmsg("self-check: cannot start a thread on any "
				"registered CPU (%s); use --no-self-check to skip",
				strerror(-r));
			return EXIT_RUNTIME;
		}
		if (wait_for_check_record(m))
			break;
		sync_drops(m);
		if (!m->col.n.dropped)	/* not lost to overflow: deaf */
			break;
		cpu = cpuset_next(&m->cfg->cpus, 0);
	}
	m->col.watch_tid = 0;
	if (mon_stop)
		return 0;
	if (!m->col.watch_seen) {
		warnmsg("registered, but no exit record arrived within %d ms: "
			"exitmon must run in the initial network namespace (not in "
			"a container network or under systemd PrivateNetwork=); "
			"--no-self-check skips this test",
			SELFCHECK_TIMEOUT_MS);
		return EXIT_DEAF;
	}
	return 0;
}

static int write_pidfile(const char *path)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	int r = file_replace_atomic(path, buf, (size_t)n);

	if (r < 0)
		warnmsg("cannot write pid file %s: %s", path, strerror(-r));
	return r < 0 ? EXIT_OUTPUT : 0;
}

/* --- the loop --- */

static void write_metrics(struct mon *m, double now)
{
	struct metrics_gauges g = { 0 };
	struct run_counts rc;
	struct queue_state q = { 0, 0 };
	struct run_info ri = { 0 };
	double dt = now - m->last_metrics;
	int r;

	sync_drops(m);
	receiver_queue(&m->rx, &q);
	run_info_fill_usage(&ri);
	g.record_rate = dt > 0 ? (double)(m->col.n.records -
					  m->records_at_last_metrics) / dt : 0;
	g.queue_bytes = q.rmem_alloc;
	g.rcvbuf_bytes = q.rcvbuf;
	g.cpu_user = ri.cpu_user;
	g.cpu_sys = ri.cpu_sys;
	g.start_time = m->start_unix;
	rc = counts_of(m);
	if ((r = metrics_write(m->cfg->metrics, &rc, &g)) < 0)
		warnmsg("cannot write metrics %s: %s", m->cfg->metrics,
			strerror(-r));
	m->last_metrics = now;
	m->records_at_last_metrics = m->col.n.records;
}

static void periodic(struct mon *m, double now)
{
	const struct mon_config *cfg = m->cfg;
	struct run_counts rc;

	if (now - m->last_drops >= 0.1 || mon_stop) {
		sync_drops(m);
		m->last_drops = now;
	}
	if (mon_reopen) {
		int r;

		mon_reopen = 0;
		if ((r = output_reopen(&m->out)) < 0)
			warnmsg("cannot reopen %s: %s; records are counted as "
				"unwritten until it can be", cfg->output,
				strerror(-r));
	}
	if (mon_print_stats || (cfg->stats_s > 0 && now - m->last_stats >= cfg->stats_s)) {
		double dt = now - m->last_stats;
		uint64_t recs = m->col.n.records - m->records_at_last_stats;

		mon_print_stats = 0;
		sync_drops(m);
		rc = counts_of(m);
		report_stats_line(&rc, now - m->t0, dt > 0 ? (double)recs / dt : 0);
		m->last_stats = now;
		m->records_at_last_stats = m->col.n.records;
	}
	if (cfg->metrics && now - m->last_metrics >=
	    (cfg->stats_s > 0 ? cfg->stats_s : DEFAULT_METRICS_S))
		write_metrics(m, now);
	if (cfg->duration_s > 0 && now - m->t0 >= cfg->duration_s)
		mon_stop = 1;
	if (collector_done(&m->col))
		mon_stop = 1;
}

static void sleep_until(struct timespec *next, unsigned interval_ms)
{
	next->tv_nsec += (long)interval_ms * 1000000L;
	while (next->tv_nsec >= 1000000000L) {
		next->tv_nsec -= 1000000000L;
		next->tv_sec++;
	}
	/* EINTR (a signal) just ends this sleep early. */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL);
}

static int loop_batched(struct mon *m)
{
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!mon_stop) {
		int r = receiver_drain(&m->rx, collector_datagram, &m->col);

		if (r < 0) {
			warnmsg("receive failed: %s", strerror(-r));
			return EXIT_RUNTIME;
		}
		output_flush(&m->out);
		periodic(m, now_s());
		if (!mon_stop)
			sleep_until(&next, m->cfg->interval_ms);
	}
	return 0;
}

static int loop_wakeup(struct mon *m)
{
	struct timeval tv = { 0, 200 * 1000 };	/* to notice --duration */
	double last_flush = now_s();

	setsockopt(m->rx.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while (!mon_stop) {
		int r = receiver_wait_one(&m->rx, collector_datagram, &m->col);
		double now = now_s();

		if (r < 0 && r != -EINTR && r != -EAGAIN) {
			warnmsg("receive failed: %s", strerror(-r));
			return EXIT_RUNTIME;
		}
		if (now - last_flush >= m->cfg->interval_ms / 1000.0) {
			output_flush(&m->out);
			last_flush = now;
		}
		periodic(m, now);
	}
	return 0;
}

/* --- shutdown: drain, deregister, drain, flush, report --- */

static void finish(struct mon *m, struct run_info *ri)
{
	receiver_drain(&m->rx, collector_datagram, &m->col);
	caps_net_admin_effective(true);
	if (ts_deregister(&m->ts, m->cfg->cpulist, REQUEST_TIMEOUT_MS,
			  collector_datagram, &m->col) < 0)
		warnmsg("deregistering the listener failed; the kernel drops it "
			"when the socket closes");
	caps_net_admin_effective(false);
	receiver_drain(&m->rx, collector_datagram, &m->col);
	sync_drops(m);
	output_flush(&m->out);
	ri->seconds = now_s() - m->t0;
	ri->rcvbuf = m->rcvbuf;
	ri->interval_ms = m->cfg->interval_ms;
	ri->wakeup = m->cfg->wakeup;
	ri->struct_version = m->col.last_version;
	ri->cpulist = m->cfg->cpulist;
	run_info_fill_usage(ri);
}

static int report(struct mon *m, const struct run_info *ri, int status)
{
	struct run_counts rc = counts_of(m);

	report_final(&rc, ri);
	if (m->out.last_err)
		warnmsg("writing records failed: %s; %llu records could not be "
			"written", strerror(-m->out.last_err),
			(unsigned long long)m->out.unwritten);
	if (m->cfg->summary && report_summary(m->cfg->summary, &rc, ri) < 0) {
		warnmsg("cannot write summary %s", m->cfg->summary);
		return status ? status : EXIT_OUTPUT;
	}
	return status;
}

static void cleanup(struct mon *m)
{
	if (m->pidfile_written)
		unlink(m->cfg->pidfile);
	output_close(&m->out);
	capture_close(m->col.cap);
	receiver_free(&m->rx);
	ts_close(&m->ts);
}

int mon_run(const struct mon_config *cfg)
{
	struct mon m;
	struct run_info ri = { 0 };
	int status;

	memset(&m, 0, sizeof(m));
	m.cfg = cfg;
	m.ts.fd = -1;
	if ((status = open_sinks(&m)) || (status = open_listener(&m)))
		goto out;
	m.t0 = m.last_stats = m.last_drops = m.last_metrics = now_s();
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		m.start_unix = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	}
	if (cfg->self_check && (status = self_check(&m)))
		goto out_registered;
	if (cfg->pidfile && (status = write_pidfile(cfg->pidfile)))
		goto out_registered;
	m.pidfile_written = cfg->pidfile != NULL;
	notify_systemd("READY=1");
	if (cfg->metrics)
		write_metrics(&m, now_s());
	status = cfg->wakeup ? loop_wakeup(&m) : loop_batched(&m);
	notify_systemd("STOPPING=1");
out_registered:
	finish(&m, &ri);
	if (cfg->metrics)
		write_metrics(&m, now_s());
	status = report(&m, &ri, status);
out:
	cleanup(&m);
	return status;
}

int mon_replay(const struct mon_config *cfg)
{
	struct capture_reader *rd;
	struct run_info ri = { 0 };
	struct mon m;
	const void *msg;
	size_t len;
	int r, status;

	memset(&m, 0, sizeof(m));
	m.cfg = cfg;
	m.ts.fd = -1;
	if ((r = capture_read_open(cfg->replay, &rd)) < 0) {
		warnmsg("cannot read capture %s: %s", cfg->replay,
			r == -EINVAL ? "not a netlink pcap capture" : strerror(-r));
		return EXIT_USAGE;
	}
	if ((status = open_sinks(&m)) == 0) {
		m.t0 = now_s();
		while ((r = capture_read_next(rd, &msg, &len)) > 0 && !mon_stop &&
		       !collector_done(&m.col))
			collector_datagram(&m.col, msg, len, 0);
		if (r < 0) {
			warnmsg("capture %s ends in a partial packet (ignored)",
				cfg->replay);
			m.col.n.truncated++;
		}
		output_flush(&m.out);
		ri.seconds = now_s() - m.t0;
		ri.struct_version = m.col.last_version;
		run_info_fill_usage(&ri);
		status = report(&m, &ri, 0);
	}
	capture_read_close(rd);
	output_close(&m.out);
	return status;
}
