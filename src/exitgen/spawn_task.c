// SPDX-License-Identifier: GPL-2.0-or-later
/* What runs inside an exiting task: name itself, do the work, meet the
 * spawner, exit.
 *
 * CLONE_VM children share our memory and, through CLONE_SETTLS, the thread
 * pointer of an idle donor thread (spawn_tls.c).  So this file calls no
 * libc function that keeps state: no malloc, no stdio, no cancellation
 * points; only syscall(), whose sole side effect on failure is the donor's
 * errno, and clock_gettime().  Every task blocks every signal (the spawner
 * made it with all blocked), so no handler ever runs on these stacks. */
#include "spawn_task.h"
#include "clock.h"

#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CLONE_GROUP_THREAD (CLONE_VM | CLONE_FS | CLONE_FILES | \
			    CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM | \
			    CLONE_SETTLS)

void spawn_task_futex_wait_ns(atomic_uint *w, unsigned val,
			      uint64_t timeout_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(timeout_ns / 1000000000u),
		.tv_nsec = (long)(timeout_ns % 1000000000u),
	};

	/* Not FUTEX_PRIVATE: fork children wait on MAP_SHARED words. */
	syscall(SYS_futex, w, FUTEX_WAIT, val, timeout_ns ? &ts : NULL,
		NULL, 0);
}

void spawn_task_futex_wake_all(atomic_uint *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static uint64_t cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spin in user space between looks at the CPU clock (a system call for
 * thread CPU time), looking less often while much time is left, so the
 * time burnt is user time and overshoots by little. */
static void work_cpu(uint64_t ns)
{
	uint64_t start = cpu_now(), now = start, spins = 1024;

	while (now - start < ns) {
		uint64_t before = now;

		for (volatile uint64_t i = 0; i < spins; i++)
			;
		now = cpu_now();
		if (ns - (now - start) > 8 * (now - before) && spins < (1u << 24))
			spins *= 2;
	}
}

/* Fresh anonymous pages, one store each, given back before exit so a
 * CLONE_VM task leaves nothing in the shared address space. */
static void work_touch(uint64_t bytes)
{
	long page = 4096;
	long p = syscall(SYS_mmap, NULL, bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == -1)
		return;
	for (uint64_t off = 0; off < bytes; off += (uint64_t)page)
		((volatile char *)p)[off] = 1;
	syscall(SYS_munmap, p, bytes);
}

/* Tasks write at offsets spread over 64 slots of the file so a run does
 * not grow it without bound. */
static void work_write(const struct task_plan *pl, uint64_t index)
{
	uint64_t left = pl->work.write_bytes;
	uint64_t off = (index % 64) * pl->work.write_bytes;

	while (left > 0) {
		size_t n = left < pl->zero_len ? (size_t)left : pl->zero_len;
		long w = syscall(SYS_pwrite64, pl->write_fd, pl->zero, n,
				 (long)off);

		if (w <= 0)
			return;
		left -= (uint64_t)w;
		off += (uint64_t)w;
	}
	/* An I/O-bound task waits for its data to reach the disk, so its
	 * record carries block I/O delay (with delay accounting on). */
	if (pl->work.write_sync)
		syscall(SYS_fdatasync, pl->write_fd);
}

static void do_work(const struct task_plan *pl, uint64_t index)
{
	if (pl->work.cpu_ns)
		work_cpu(pl->work.cpu_ns);
	if (pl->work.touch_bytes)
		work_touch(pl->work.touch_bytes);
	if (pl->work.write_bytes)
		work_write(pl, index);
}

static void say_ready(struct task_ctl *c)
{
	atomic_fetch_add(&c->ready, 1);
	spawn_task_futex_wake_all(&c->ready);
}

static void wait_for(atomic_uint *w)
{
	while (atomic_load(w) == 0)
		spawn_task_futex_wait_ns(w, 0, 0);
}

static void note_end(struct task_ctl *c)
{
	uint64_t now = mono_ns();
	uint_fast64_t seen = atomic_load(&c->end_ns);

	/* The group's end is its last thread's. */
	while (seen < now &&
	       !atomic_compare_exchange_weak(&c->end_ns, &seen, now))
		;
}

/* Every thread of every task runs this, then exits. */
static void task_body(struct task_ctl *c)
{
	const struct task_plan *pl = c->plan;

	syscall(SYS_prctl, PR_SET_NAME, pl->tag, 0, 0, 0);
	if (pl->cohort_go) {
		say_ready(c);
		wait_for(pl->cohort_go);
	}
	do_work(pl, c->index);
	if (pl->cohort_go)
		note_end(c);
	switch (pl->mode) {
	case TASK_EXIT:
		break;
	case TASK_WAIT_GO:
		say_ready(c);
		wait_for(&c->go);
		break;
	case TASK_WAIT_KILL:
		say_ready(c);
		for (;;)
			syscall(SYS_ppoll, NULL, 0, NULL, NULL, 0);
	}
}

/* A child must not outlive us: ask for SIGKILL when the spawner thread
 * dies, then make sure it had not died already.  A task that neither works
 * nor waits ends within microseconds anyway; sparing it the two system
 * calls keeps the flat-out rate close to a bare loop. */
static int guard_parent(const struct task_plan *pl)
{
	const struct spawn_work *w = &pl->work;

	if (pl->mode == TASK_EXIT && !pl->cohort_go &&
	    !w->cpu_ns && !w->touch_bytes && !w->write_bytes)
		return 0;
	syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	return syscall(SYS_getppid) == pl->parent ? 0 : -1;
}

static int thread_entry(void *arg)
{
	struct task_ctl *c = arg;

	if (!c->plan->bare)
		task_body(c);
	return 0;	/* glibc's clone stub exits this thread only */
}

/* Threads 1..K-1 of a group, on the slot's stacks above the leader's. */
static void make_group_threads(struct task_ctl *c)
{
	const struct task_plan *pl = c->plan;

	for (unsigned i = 1; i < pl->threads; i++) {
		char *top = c->stack + (size_t)(i + 1) * (TASK_STACK + TASK_GUARD);

		if (clone(thread_entry, top, CLONE_GROUP_THREAD, c, NULL,
			  pl->tls, NULL) == -1) {
			/* Most likely a task limit; the spawner stops.
			 * Count the missing threads as ready so nobody waits
			 * for them. */
			atomic_store(&c->err, -1);
			atomic_fetch_add(&c->ready, pl->threads - i);
			spawn_task_futex_wake_all(&c->ready);
			return;
		}
	}
}

int spawn_task_clone_entry(void *arg)
{
	struct task_ctl *c = arg;

	if (guard_parent(c->plan) < 0)
		return 0;
	if (c->plan->threads > 1)
		make_group_threads(c);
	task_body(c);
	return 0;	/* SYS_exit: a group lives on until its last thread */
}

void *spawn_task_pthread_entry(void *arg)
{
	task_body(arg);
	return NULL;
}

void spawn_task_fork_child(struct task_ctl *c)
{
	if (guard_parent(c->plan) == 0)
		task_body(c);
	_exit(0);
}

int spawn_task_bare_entry(void *arg)
{
	struct task_ctl *c = arg;

	if (c->plan->threads > 1)
		make_group_threads(c);
	return 0;
}

void *spawn_task_bare_pthread(void *arg)
{
	return arg;
}
