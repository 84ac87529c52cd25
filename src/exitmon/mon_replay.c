// SPDX-License-Identifier: GPL-2.0-or-later
/* --replay: every packet of a capture file through the collector's
 * pipeline, then the report a live run gives. */
#include "mon_replay.h"
#include "mon_exit.h"
#include "mon_signal.h"
#include "mon_sinks.h"
#include "mon_state.h"
#include "clock.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "log.h"
#include "metrics.h"
#include "report.h"
#include "safe.h"

/* The packets through the collector; the last capture_read_next result.
 * Inlined twice, acct NULL in one (no --metrics: not even a test of it a
 * packet) and the collector's in the other. */
static inline __attribute__((always_inline)) int
replay_loop(struct mon *m, struct capture_reader *rd, struct collector *col,
	    struct acct *acct, uint64_t *oversized)
{
	const void *msg;
	size_t len;
	int r;

	while ((r = capture_read_next(rd, &msg, &len)) != 0 &&
	       r != -EBADMSG && !mon_signal_stop && !collector_done(col)) {
		/* --metrics: a command found the table full; rank the ones
		 * in it now (acct.h), as a live run does at each interval,
		 * so that it has room again. */
		if (acct && acct_full(acct) &&
		    mon_state_acct(m, &col, 1, false, true) < 0)
			break;
		if (r > 0)
			collector_datagram(col, msg, len, 0);
		else if (r == -ENOMSG)
			col->n.malformed++;
		else
			(*oversized)++;
	}
	return r;
}

/* Every packet of the capture through the collector; an oversized one is
 * skipped and counted, an empty one counted malformed (as exitstat does),
 * a cut-off last one ends the file, damage is passed over (the reader
 * resynchronises) and said.  Whether there was damage. */
static bool replay_packets(struct mon *m, struct capture_reader *rd,
			   struct collector *col, const char *path)
{
	const struct capture_damage *d = capture_read_damage(rd);
	uint64_t oversized = 0;
	char say[256];
	int r;

	r = col->acct ? replay_loop(m, rd, col, col->acct, &oversized)
		      : replay_loop(m, rd, col, NULL, &oversized);
	if (oversized) {
		log_warn("capture %s: %llu packets larger than %d bytes skipped "
			"(counted as truncated)", path,
			(unsigned long long)oversized, CAPTURE_SNAPLEN);
		col->n.truncated += oversized;
	}
	if (d->spans)
		log_warn("capture %s: %s", path, capture_damage_say(d, say, sizeof(say)));
	if (r == -EBADMSG) {
		log_warn("capture %s ends in a partial packet (ignored)",
			path);
		col->n.truncated++;
	}
	collector_push(col);
	return d->spans > 0;
}

/* --metrics once, at the end: the counters as the summary has them and
 * the records' own (every command ranked, the heaviest shown); the
 * receive queue's gauges are 0.  0 or -errno. */
static int replay_metrics(struct mon *m, struct collector *col,
			  const struct run_info *ri)
{
	struct metrics_gauges g = { 0 };
	int r;

	if ((r = mon_state_acct(m, &col, 1, false, true)) < 0)
		return r;
	g.cpu_user = ri->cpu_user;
	g.cpu_sys = ri->cpu_sys;
	g.start_time = m->start_unix;
	g.run = m->run;
	g.last_seq = atomic_load(&m->seq);
	return metrics_write(m->cfg->metrics, &col->n, &g, &m->acct);
}

/* Replay through the collector, then report; an exit status. */
static int replay_run(struct mon *m, struct capture_reader *rd)
{
	struct run_info ri = { 0 };
	struct collector_setup w;
	struct collector col;
	int status = 0, r;

	mon_state_wiring(m, false, &w);
	if (collector_init(&col, &w) < 0) {
		log_warn("out of memory");
		return EXIT_RUNTIME;
	}
	/* Records are as of when they were captured: each packet's own time
	 * is the time_ns of its records (and of its copy with --capture). */
	col.recv_time = capture_read_time(rd);
	m->t0 = mono_s();
	m->start_unix = real_s();
	if (replay_packets(m, rd, &col, m->cfg->replay))
		status = EXIT_DAMAGED;	/* the rest is reported all the same */
	output_drain(&m->out, OUTPUT_DRAIN_MS);
	ri.seconds = mono_s() - m->t0;
	output_counts(&m->out, &col.n.written, &col.n.unwritten);
	ri.struct_version = col.last_version;
	ri.run = m->run;
	ri.last_seq = atomic_load(&m->seq);
	report_fill_usage(&ri);
	report_final(&col.n, &ri);
	if (m->cfg->summary &&
	    (r = report_summary(m->cfg->summary, &col.n, &ri)) < 0) {
		log_warn("cannot write summary %s: %s", m->cfg->summary,
			safe_strerror(-r));
		status = EXIT_OUTPUT;
	}
	if (m->cfg->metrics && (r = replay_metrics(m, &col, &ri)) < 0) {
		log_warn("cannot write metrics %s: %s", m->cfg->metrics,
			safe_strerror(-r));
		status = EXIT_OUTPUT;
	}
	collector_free(&col);
	if (m->acct_ready)
		acct_sum_free(&m->acct);
	return status;
}

/* Why a file is not a capture this exitmon replays, in words. */
static const char *not_a_capture(const char *path, char *buf, size_t cap)
{
	unsigned char head[24];
	const char *what;
	ssize_t n = -1;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : -1;

	if (fd >= 0) {	/* standard input was read already: not again */
		n = read(fd, head, sizeof(head));
		close(fd);
	}
	what = n > 0 ? capture_sniff(head, (size_t)n, buf, cap) : NULL;
	return what && *what ? what : "not a pcap file (exitmon --capture "
	       "writes a pcap of netlink messages)";
}

int mon_replay(const struct mon_config *cfg)
{
	char why[160];

	struct capture_reader *rd;
	struct mon m;
	int r, status;

	memset(&m, 0, sizeof(m));
	m.cfg = cfg;
	if ((r = capture_read_open(cfg->replay, &rd)) < 0) {
		log_warn("cannot read capture %s: %s", cfg->replay,
			r == -EINVAL ? not_a_capture(cfg->replay, why, sizeof(why)) :
			strerror(-r));
		return EXIT_USAGE;
	}
	if ((status = mon_state_run_id(&m, false)) == 0 &&
	    (status = mon_sinks_open(&m)) == 0)
		status = replay_run(&m, rd);
	capture_read_close(rd);
	output_close(&m.out);
	return status;
}
