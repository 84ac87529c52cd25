/* The processes of one run (sweep_exec.c): argument vectors, the run's
 * files in the scratch directory, exitmon's start, readiness and stop,
 * and the alarm that bounds a run. */
#ifndef EXITSWEEP_SWEEP_EXEC_H
#define EXITSWEEP_SWEEP_EXEC_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "kvfile.h"
#include "sweep_run.h"

/* seconds a child gets between SIGTERM and SIGKILL */
#define SWEEP_STOP_GRACE_S 10.0

#define ARGV_MAX 48
struct sweep_argv {
	char *a[ARGV_MAX + 1];
	char buf[ARGV_MAX][PATH_MAX];
	int n;
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

/* Append an argument; an option and its value; an option and a number.
 * Past ARGV_MAX arguments the rest are dropped (ours need far fewer). */
void sweep_argv_add(struct sweep_argv *b, const char *s);
void sweep_argv_opt(struct sweep_argv *b, const char *opt, const char *val);
void sweep_argv_num(struct sweep_argv *b, const char *opt, long long val);

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

/* SIGALRM after s seconds (sweep_alarm set, a wait interrupted); off. */
void sweep_exec_alarm_set(double s);
void sweep_exec_alarm_clear(void);

#endif
