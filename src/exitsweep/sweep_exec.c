// SPDX-License-Identifier: GPL-2.0-or-later
/* The processes of a run: their scratch files, the collector started
 * (its argument vector: sweep_argv.c), awaited until ready and stopped, a
 * child's failure in words, and the alarm that bounds a run (what a run
 * does with them: sweep_run.c). */
#include "sweep_exec.h"
#include "clock.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parse.h"
#include "sweep_argv.h"
#include "sweep_proc.h"
#include "sweep_signal.h"

/* --- files of one run --- */


void sweep_exec_files_init(struct sweep_run_files *f, const char *dir)
{
	snprintf(f->mon_sum, sizeof(f->mon_sum), "%s/exitmon.sum", dir);
	snprintf(f->mon_pid, sizeof(f->mon_pid), "%s/exitmon.pid", dir);
	snprintf(f->mon_err, sizeof(f->mon_err), "%s/exitmon.err", dir);
	snprintf(f->mon_out, sizeof(f->mon_out), "%s/exitmon.csv", dir);
	snprintf(f->gen_sum, sizeof(f->gen_sum), "%s/exitgen.sum", dir);
	snprintf(f->gen_err, sizeof(f->gen_err), "%s/exitgen.err", dir);
	snprintf(f->kill_sum, sizeof(f->kill_sum), "%s/exitgen-kill.sum", dir);
	snprintf(f->probe_sum, sizeof(f->probe_sum), "%s/exitprobe.sum", dir);
	unlink(f->probe_sum);
	unlink(f->mon_sum);
	unlink(f->mon_pid);
	unlink(f->mon_out);
	unlink(f->gen_sum);
	unlink(f->kill_sum);
}

/* "exitmon failed (exit status 3): exitmon: no CAP_NET_ADMIN ..." */
void sweep_exec_child_failed(char *err, size_t len, const char *what, int status,
			     const char *errfile)
{
	char how[96], last[512];

	sweep_proc_describe(status, how, sizeof(how));
	sweep_proc_last_line(errfile, last, sizeof(last));
	snprintf(err, len, "%s %s%s%s", what, how, last[0] ? ": " : "", last);
}

/* --- the collector --- */


static void mon_args(const struct run_env *env, int listener, const char *tag,
		     bool keep_records, const struct sweep_run_files *f, struct sweep_argv *b)
{
	sweep_argv_add(b, env->cfg->exitmon);
	sweep_argv_opt(b, "-f", "csv");
	sweep_argv_opt(b, "-o", keep_records ? f->mon_out : "/dev/null");
	if (tag)
		sweep_argv_opt(b, "--comm", tag);
	sweep_argv_opt(b, "--summary", f->mon_sum);
	sweep_argv_opt(b, "--pidfile", f->mon_pid);
	if (listener == LISTEN_WAKEUP)
		sweep_argv_add(b, "--wakeup");
}

/* The pid a pid file names, 0 for none (yet). */
static pid_t pidfile_pid(const char *path)
{
	char text[64];
	FILE *pf = fopen(path, "re");
	uint64_t pid = 0;

	if (!pf)
		return 0;
	if (fgets(text, sizeof(text), pf)) {
		text[strcspn(text, "\n")] = '\0';
		if (parse_u64(text, 1, INT_MAX, &pid) < 0)
			pid = 0;
	}
	fclose(pf);
	return (pid_t)pid;
}

static void mon_kill(struct sweep_mon *m)
{
	int status;

	sweep_proc_stop(m->pid, SWEEP_STOP_GRACE_S, &status);
	m->running = false;
}

/* Ready = the pid file names our child: exitmon writes it only once its
 * listener is registered and records were seen to arrive. */
static int mon_wait_ready(const struct run_env *env, const struct sweep_run_files *f,
			  struct sweep_mon *m, char *err, size_t errlen)
{
	double deadline = mono_s() + env->ready_timeout;
	int status;

	while (pidfile_pid(f->mon_pid) != m->pid) {
		if (sweep_proc_poll(m->pid, &status) == 1) {
			m->running = false;
			sweep_exec_child_failed(err, errlen, "exitmon exited "
						"before it was ready,", status,
						f->mon_err);
			return -ECHILD;
		}
		if (sweep_signal_interrupted) {
			mon_kill(m);
			return -EINTR;
		}
		if (mono_s() > deadline) {
			mon_kill(m);
			snprintf(err, errlen, "exitmon was not ready after %.0f s "
			     "(no pid file %s)", env->ready_timeout, f->mon_pid);
			return -ETIMEDOUT;
		}
		sweep_proc_sleep(0.01);
	}
	return 0;
}

int sweep_exec_mon_start(const struct run_env *env, int listener, const char *tag,
			 bool keep_records, const struct sweep_run_files *f,
			 struct sweep_mon *m, char *err, size_t errlen)
{
	struct sweep_argv b = { .n = 0 };

	mon_args(env, listener, tag, keep_records, f, &b);
	m->pid = sweep_proc_spawn(b.a, NULL, f->mon_err);
	if (m->pid < 0) {
		snprintf(err, errlen, "cannot start %s: %s", env->cfg->exitmon,
		     strerror(-m->pid));
		return m->pid;
	}
	m->running = true;
	return mon_wait_ready(env, f, m, err, errlen);
}

/* SIGTERM, wait, load its summary. */
int sweep_exec_mon_stop(struct sweep_mon *m, const struct sweep_run_files *f,
			struct kvmap *kv, char *err, size_t errlen)
{
	int status = 0, r;

	if (!m->running)
		return 0;
	r = sweep_proc_stop(m->pid, SWEEP_STOP_GRACE_S, &status);
	m->running = false;
	if (r < 0) {
		snprintf(err, errlen, "cannot reap exitmon: %s", strerror(-r));
		return r;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		sweep_exec_child_failed(err, errlen, "exitmon failed,", status, f->mon_err);
		return -ECHILD;
	}
	r = kv_map_load(f->mon_sum, kv);
	if (r < 0)
		snprintf(err, errlen, "cannot read exitmon's summary %s: %s",
		     f->mon_sum, strerror(-r));
	return r;
}

void sweep_exec_alarm_set(double s)
{
	struct itimerval it = { { 0, 0 }, { (time_t)s, (suseconds_t)((s - floor(s)) * 1e6) } };

	sweep_signal_alarm = 0;
	setitimer(ITIMER_REAL, &it, NULL);
}

void sweep_exec_alarm_clear(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &it, NULL);
	sweep_signal_alarm = 0;
}

