/* Internals shared by the spawn_*.c files; nothing else includes this. */
#ifndef EXITGEN_SPAWN_INTERNAL_H
#define EXITGEN_SPAWN_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>

#include "pace.h"
#include "spawn.h"

#define TASK_STACK (64u * 1024)	/* per thread of a task; work needs little */
#define TASK_GUARD 4096u	/* PROT_NONE page below every stack */
#define LAZY_DEPTH 64u		/* tasks a worker keeps in flight with work */

/* What a task does once its work is done. */
enum task_mode {
	TASK_EXIT,		/* exit at once */
	TASK_WAIT_GO,		/* say ready, wait for release, exit */
	TASK_WAIT_KILL,		/* say ready, sleep until SIGKILL */
};

/* Read-only while tasks run, shared by every task. */
struct task_plan {
	char tag[SPAWN_TAG_MAX + 1];
	struct spawn_work work;
	int write_fd;
	const char *zero;	/* zero bytes to write from */
	size_t zero_len;
	unsigned threads;	/* threads per task: K for groups, else 1 */
	enum task_mode mode;
	atomic_uint *cohort_go;	/* cohort: wait for this before the work */
	pid_t parent;		/* our pid, for the parent-death check */
	void *tls;		/* thread pointer lent to CLONE_VM children */
	bool bare;		/* baseline: the task does nothing at all */
};

/* One per task slot.  Lives in MAP_SHARED memory: fork children write
 * ready, end_ns and err through it. */
struct task_ctl {
	atomic_uint ready;	/* threads set up (futex word) */
	atomic_uint go;		/* release (futex word) */
	atomic_int err;		/* group leader: not every thread was made */
	atomic_uint_fast64_t end_ns; /* cohort: last thread's end of work */
	uint64_t index;		/* schedule index, picks the write offset */
	const struct task_plan *plan;
	char *stack;		/* lowest byte of this slot's stacks, or NULL */
	/* Spawner side only. */
	pid_t pid;
	pthread_t thread;
	uint64_t t0;		/* create or release time, for reap latency */
};

/* ---- inside the task (spawn_task.c): raw system calls only ------------ */
int task_clone_entry(void *ctl);	/* process, group leader */
void *task_pthread_entry(void *ctl);	/* thread shape */
_Noreturn void task_fork_child(struct task_ctl *c);
int task_bare_entry(void *ctl);		/* baseline: return at once */
void *task_bare_pthread(void *ctl);
/* Wait while *w == val, at most timeout_ns (0: no limit). */
void task_futex_wait_ns(atomic_uint *w, unsigned val, uint64_t timeout_ns);
void task_futex_wake_all(atomic_uint *w);

/* ---- slots and shapes (spawn_shape.c) ---------------------------------- */
struct slots {
	struct task_ctl *ctl;
	size_t ctl_bytes;
	char *stacks;
	size_t stack_bytes;
	size_t per_slot;	/* stack bytes one slot owns */
	unsigned n;
};

int shape_slots_init(struct slots *s, unsigned n, enum spawn_shape shape,
		     const struct task_plan *plan);
void shape_slots_fini(struct slots *s);
int shape_create(enum spawn_shape shape, struct task_ctl *c);
int shape_wait_ready(enum spawn_shape shape, struct task_ctl *c);
int shape_release(enum spawn_shape shape, enum spawn_exit_by by,
		  struct task_ctl *c);
int shape_reap(enum spawn_shape shape, struct task_ctl *c);
/* Thread shape: 0 when joined, -EBUSY while it runs. */
int shape_try_join(struct task_ctl *c);
/* Other shapes: a child of this thread that has ended (pid), 0 if none
 * has yet (block false), -errno. */
pid_t shape_reap_any(bool block);

/* ---- TLS lent to CLONE_VM children (spawn_tls.c) ----------------------- */
struct tls_donor {
	pthread_t thread;
	atomic_uint quit;
	atomic_uintptr_t tp;
	bool running;
};

int tls_donor_start(struct tls_donor *d);
void tls_donor_stop(struct tls_donor *d);

/* ---- the run (spawn.c, spawn_worker.c, spawn_cohort.c) ----------------- */
struct spawn_ctx {
	const struct spawn_config *cfg;
	struct task_plan plan;
	struct pace pace;
	atomic_int stop;	/* 0, or enum spawn_stop + 1 of the first reason */
	int error;
	const char *error_what;
	pthread_mutex_t lock;	/* error, error_what */
	atomic_uint line_left;	/* batch: spawners yet to reach the start line */
	atomic_uint line_go;	/* batch: the schedule has started (futex) */
	uint64_t start_ns;
	struct rusage self0, children0;
	atomic_uint done;	/* workers finished */
	pthread_t main_thread;
};

struct worker {
	struct spawn_ctx *ctx;
	unsigned id;
	pthread_t thread;
	struct slots slots;
	unsigned *free_slots;	/* stack of free slot numbers */
	unsigned nfree;
	unsigned *busy;		/* slots of tasks in flight (lazy), unordered */
	unsigned nbusy;
	struct hist late, reap;
	uint64_t exits, created, last_reap_ns;
	double *finish;		/* cohort */
	uint64_t nfinish;
	double release;
};

void *worker_main(void *arg);
void *worker_baseline(void *arg);
int cohort_run(struct worker *w);
/* Record why we stop; the first reason wins.  err/what may be 0/NULL. */
void spawn_ctx_stop(struct spawn_ctx *ctx, enum spawn_stop why, int err,
		    const char *what);
/* Take the time and resource origin of the run. */
void spawn_ctx_start_clock(struct spawn_ctx *ctx);
/* n spawners will not come to the start line (any more): the last one
 * there starts the clock and lets everyone go. */
void spawn_ctx_leave_line(struct spawn_ctx *ctx, unsigned n);

/* ---- background children and the shared mapping (spawn_bg.c) ---------- */
int bg_start(uint64_t n, pid_t **pids, uint64_t *made);
double bg_stop(pid_t *pids, uint64_t n);
int bg_map_touch(uint64_t bytes, const char *path, void **addr);
void bg_map_release(void *addr, uint64_t bytes);

#endif
