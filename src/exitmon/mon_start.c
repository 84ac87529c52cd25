// SPDX-License-Identifier: GPL-2.0-or-later
/* The collector's start-up: open the shards, drop privileges, open the
 * sinks, register, self-check, start the threads, write the pid file.
 * Each failure maps to one message and one exit status (enum exit_status). */
#include "mon_start.h"
#include "clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "caps.h"
#include "log.h"
#include "mon_exit.h"
#include "mon_signal.h"
#include "mon_sinks.h"
#include "notify.h"
#include "paths.h"
#include "privs.h"
#include "safe.h"
#include "shard.h"

#define SELFCHECK_TIMEOUT_MS 2000

static int no_capability(void)
{
	log_warn("registering the taskstats listener needs CAP_NET_ADMIN: run "
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
		log_warn("the kernel refused registration (EPERM)%s%s: exitmon must "
			"run in the initial user namespace (not in a rootless "
			"container or under systemd PrivateUsers=)", sep, ack);
		return EXIT_NAMESPACE;
	}
	if (r == -EINVAL) {
		log_warn("the kernel refused registration (EINVAL)%s%s: exitmon must "
			"run in the initial PID namespace (on the host, or a "
			"container started with --pid=host)", sep, ack);
		return EXIT_NAMESPACE;
	}
	if (r == -ERANGE) {
		log_warn("the kernel refused cpu list %s (ERANGE)%s%s: give CPUs "
			"from /sys/devices/system/cpu/possible", s->cpulist, sep, ack);
		return EXIT_CPUMASK;
	}
	log_warn("registering the taskstats listener failed: %s%s%s",
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
	mon_state_wiring(m, true, &w);
	for (i = 0; i < m->cfg->shards; i++) {
		r = shard_open(&m->shards[i], m->cfg, i, &w);
		m->n_opened = i + 1;
		if (r == -ENOENT) {
			log_warn("the kernel has no TASKSTATS generic netlink family: "
				"it needs CONFIG_TASKSTATS=y");
			return EXIT_NOFAMILY;
		}
		if (r < 0) {
			log_warn("cannot open a generic netlink socket: %s",
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
		log_warn("cannot drop privileges: failed to %s: %s", what,
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
			log_warn("cannot set the receive buffer to %llu bytes: %s",
				(unsigned long long)m->cfg->rcvbuf, strerror(-r));
		if ((r = shard_register(s)) < 0)
			return explain_register_error(s, r);
	}
	return 0;
}

static int self_check(struct mon *m)
{
	unsigned i;

	for (i = 0; i < m->n_opened && !mon_signal_stop; i++) {
		int r = shard_self_check(&m->shards[i], SELFCHECK_TIMEOUT_MS,
					 &mon_signal_stop);

		if (r < 0) {
			log_warn("self-check: cannot run a thread on CPUs %s (%s); "
				"--no-self-check skips this test",
				m->shards[i].cpulist, strerror(-r));
			return EXIT_RUNTIME;
		}
		if (r == 0 && !mon_signal_stop) {
			log_warn("registered, but no exit record arrived within "
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
		log_warn("cannot write pid file %s: %s", m->cfg->pidfile,
			strerror(-r));
		return EXIT_OUTPUT;
	}
	return 0;
}

int mon_start(struct mon *m)
{
	unsigned i;
	int r;

	if ((r = mon_state_run_id(m, true)) || (r = open_shards(m)) ||
	    (r = drop_privileges(m)) ||
	    (r = mon_sinks_open(m)) || (r = register_shards(m)))
		return r;
	m->t0 = m->last_stats = m->last_metrics = mono_s();
	m->start_unix = real_s();
	if (m->cfg->self_check && (r = self_check(m)))
		return r;
	for (i = 0; i < m->n_opened; i++)
		if ((r = shard_start(&m->shards[i])) < 0) {
			log_warn("cannot start a receive thread: %s", strerror(-r));
			return EXIT_RUNTIME;
		}
	if (m->cfg->pidfile && (r = write_pidfile(m)))
		return r;
	notify_systemd("READY=1");
	return 0;
}
