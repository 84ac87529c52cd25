/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What runs inside an exiting task (spawn_task.c), and what it shares with
 * the spawner: the plan every task reads and the control block of its
 * slot.  The task makes raw system calls only (see spawn_task.c). */
#ifndef EXITGEN_SPAWN_TASK_H
#define EXITGEN_SPAWN_TASK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "spawn_config.h"

#define TASK_STACK (64u * 1024)	/* per thread of a task; work needs little */
#define TASK_GUARD 4096u	/* PROT_NONE page below every stack */

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

int spawn_task_clone_entry(void *ctl);		/* process, group leader */
void *spawn_task_pthread_entry(void *ctl);	/* thread shape */
_Noreturn void spawn_task_fork_child(struct task_ctl *c);
int spawn_task_bare_entry(void *ctl);		/* baseline: return at once */
void *spawn_task_bare_pthread(void *ctl);
/* Wait while *w == val, at most timeout_ns (0: no limit). */
void spawn_task_futex_wait_ns(atomic_uint *w, unsigned val,
			      uint64_t timeout_ns);
void spawn_task_futex_wake_all(atomic_uint *w);

#endif
