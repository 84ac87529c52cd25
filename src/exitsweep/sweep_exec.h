/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The processes of one run (sweep_exec.c): what a run needs to know of
 * the sweep (struct run_env), the run's files in the scratch directory,
 * exitmon's start, readiness and stop, and the alarm that bounds a run. */
#ifndef EXITSWEEP_SWEEP_EXEC_H
#define EXITSWEEP_SWEEP_EXEC_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "kv.h"
#include "sweep.h"
#include "sweep_machine.h"

/* seconds a child gets between SIGTERM and SIGKILL */
#define SWEEP_STOP_GRACE_S 10.0

struct run_env {
	const struct sweep_config *cfg;
	const char *tmpdir;		/* private scratch directory */
	struct sweep_machine *machine;	/* struct_version is filled in */
	double ready_timeout;		/* seconds to wait for exitmon */
};

struct sweep_run_files {
	char mon_sum[PATH_MAX], mon_pid[PATH_MAX], mon_err[PATH_MAX];
	char mon_out[PATH_MAX], gen_sum[PATH_MAX], gen_err[PATH_MAX];
	char kill_sum[PATH_MAX];	/* reap: the kill and reap invocation */
	char probe_sum[PATH_MAX];
};

struct sweep_mon {
	pid_t pid;
	bool running;
};

/* The run's file names in dir, the old files removed. */
void sweep_exec_files_init(struct sweep_run_files *f, const char *dir);
/* "exitmon failed (exit status 3): <the last line of errfile>" into err. */
void sweep_exec_child_failed(char *err, size_t len, const char *what, int status,
			     const char *errfile);

/* Start exitmon (listener: enum sweep_listener; tag: --comm, or NULL;
 * keep_records: into f->mon_out, else /dev/null) and wait until its pid
 * file says it listens.  0, -EINTR, or -errno with a reason in err. */
int sweep_exec_mon_start(const struct run_env *env, int listener, const char *tag,
			 bool keep_records, const struct sweep_run_files *f,
			 struct sweep_mon *m, char *err, size_t errlen);
/* SIGTERM, wait, load its summary into kv.  0 or -errno with a reason. */
int sweep_exec_mon_stop(struct sweep_mon *m, const struct sweep_run_files *f,
			struct kvmap *kv, char *err, size_t errlen);

/* SIGALRM after s seconds (sweep_signal_alarm set, a wait interrupted); off. */
void sweep_exec_alarm_set(double s);
void sweep_exec_alarm_clear(void);

#endif
