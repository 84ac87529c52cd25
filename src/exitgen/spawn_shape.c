// SPDX-License-Identifier: GPL-2.0-or-later
/* Task slots and the four shapes: how a task is made, released, reaped.
 *
 * A slot is a task_ctl in MAP_SHARED memory plus, for the CLONE_VM shapes,
 * one stack per thread of the task.  A slot's stacks are reused only after
 * its task has been reaped, when no thread of it can still run on them. */
#include "spawn_shape.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef __WNOTHREAD
#define __WNOTHREAD 0x20000000
#endif

/* The contract of the process shape: shared memory, no CLONE_THREAD, so
 * each task is a single-threaded process of its own.  CLONE_SETTLS: see
 * spawn_tls.c. */
#define CLONE_PROCESS (CLONE_VM | CLONE_SETTLS | SIGCHLD)

#define WAIT_READY_SLICE_NS 100000000u

static bool shape_has_stacks(enum spawn_shape shape)
{
	return shape == SHAPE_PROCESS || shape == SHAPE_GROUP;
}

static int map_stacks(struct slots *s, unsigned threads)
{
	size_t one = TASK_GUARD + TASK_STACK;

	s->per_slot = one * threads;
	s->stack_bytes = s->per_slot * s->n;
	/* NORESERVE: a big batch reserves address space, not memory. */
	s->stacks = mmap(NULL, s->stack_bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
			 MAP_STACK, -1, 0);
	if (s->stacks == MAP_FAILED) {
		s->stacks = NULL;
		return -errno;
	}
	for (size_t off = 0; off < s->stack_bytes; off += one)
		if (mprotect(s->stacks + off, TASK_GUARD, PROT_NONE) < 0)
			return -errno;
	return 0;
}

int spawn_shape_slots_init(struct slots *s, unsigned n, enum spawn_shape shape,
		     const struct task_plan *plan)
{
	int r = 0;

	memset(s, 0, sizeof(*s));
	s->n = n;
	s->ctl_bytes = sizeof(struct task_ctl) * n;
	s->ctl = mmap(NULL, s->ctl_bytes, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->ctl == MAP_FAILED) {
		s->ctl = NULL;
		r = -errno;
		goto fail;
	}
	if (shape_has_stacks(shape)) {
		r = map_stacks(s, plan->threads);
		if (r < 0)
			goto fail;
	}
	for (unsigned i = 0; i < n; i++) {
		s->ctl[i].plan = plan;
		s->ctl[i].stack = s->stacks ? s->stacks + i * s->per_slot : NULL;
	}
	return 0;
fail:
	spawn_shape_slots_fini(s);
	return r;
}

void spawn_shape_slots_fini(struct slots *s)
{
	if (s->ctl)
		munmap(s->ctl, s->ctl_bytes);
	if (s->stacks)
		munmap(s->stacks, s->stack_bytes);
	s->ctl = NULL;
	s->stacks = NULL;
}

static void ctl_reset(struct task_ctl *c)
{
	atomic_store(&c->ready, 0);
	atomic_store(&c->go, 0);
	atomic_store(&c->err, 0);
	atomic_store(&c->end_ns, 0);
	c->pid = 0;
}

static pthread_attr_t thread_attr;
static pthread_once_t thread_attr_once = PTHREAD_ONCE_INIT;
static int thread_attr_err;

/* Small stacks keep many of them in glibc's stack cache. */
static void thread_attr_init(void)
{
	thread_attr_err = -pthread_attr_init(&thread_attr);
	if (!thread_attr_err)
		thread_attr_err = -pthread_attr_setstacksize(&thread_attr,
							     TASK_STACK);
}

static int create_thread(struct task_ctl *c)
{
	void *(*fn)(void *) = c->plan->bare ? spawn_task_bare_pthread :
					      spawn_task_pthread_entry;

	pthread_once(&thread_attr_once, thread_attr_init);
	if (thread_attr_err)
		return thread_attr_err;
	return -pthread_create(&c->thread, &thread_attr, fn, c);
}

static int create_clone(struct task_ctl *c)
{
	int (*fn)(void *) = c->plan->bare ? spawn_task_bare_entry :
					    spawn_task_clone_entry;
	char *top = c->stack + TASK_GUARD + TASK_STACK;
	pid_t pid = clone(fn, top, CLONE_PROCESS, c, NULL, c->plan->tls, NULL);

	if (pid < 0)
		return -errno;
	c->pid = pid;
	return 0;
}

static int create_fork(struct task_ctl *c)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (c->plan->bare)
			_exit(0);
		spawn_task_fork_child(c);
	}
	c->pid = pid;
	return 0;
}

int spawn_shape_create(enum spawn_shape shape, struct task_ctl *c)
{
	ctl_reset(c);
	switch (shape) {
	case SHAPE_THREAD:
		return create_thread(c);
	case SHAPE_PROCESS:
	case SHAPE_GROUP:
		return create_clone(c);
	case SHAPE_FORK:
		return create_fork(c);
	}
	return -EINVAL;
}

/* Has the process ended (without reaping it)? */
static bool process_gone(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return true;
	return si.si_pid == pid;
}

int spawn_shape_wait_ready(enum spawn_shape shape, struct task_ctl *c)
{
	unsigned want = c->plan->threads;

	for (;;) {
		unsigned seen = atomic_load(&c->ready);

		if (seen >= want)
			return atomic_load(&c->err) ? -EAGAIN : 0;
		spawn_task_futex_wait_ns(&c->ready, seen, WAIT_READY_SLICE_NS);
		/* A task killed from outside never says ready. */
		if (shape != SHAPE_THREAD && atomic_load(&c->ready) < want &&
		    process_gone(c->pid))
			return -ESRCH;
	}
}

int spawn_shape_release(enum spawn_shape shape, enum spawn_exit_by by,
		  struct task_ctl *c)
{
	if (by == EXIT_BY_SIGNAL && shape != SHAPE_THREAD)
		return kill(c->pid, SIGKILL) < 0 ? -errno : 0;
	atomic_store(&c->go, 1);
	spawn_task_futex_wake_all(&c->go);
	return 0;
}

int spawn_shape_reap(enum spawn_shape shape, struct task_ctl *c)
{
	siginfo_t si;

	if (shape == SHAPE_THREAD)
		return -pthread_join(c->thread, NULL);
	while (waitid(P_PID, (id_t)c->pid, &si, WEXITED) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int spawn_shape_try_join(struct task_ctl *c)
{
	return -pthread_tryjoin_np(c->thread, NULL);
}

pid_t spawn_shape_reap_any(bool block)
{
	siginfo_t si;
	int flags = WEXITED | __WNOTHREAD | (block ? 0 : WNOHANG);

	/* __WNOTHREAD: only this spawner's children, never another
	 * spawner's or the main thread's background children. */
	memset(&si, 0, sizeof(si));
	while (waitid(P_ALL, 0, &si, flags) < 0)
		if (errno != EINTR)
			return -errno;
	return si.si_pid;
}
