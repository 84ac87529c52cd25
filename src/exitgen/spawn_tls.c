// SPDX-License-Identifier: GPL-2.0-or-later
/* A thread pointer for CLONE_VM children.
 *
 * A child made with CLONE_VM but without CLONE_SETTLS keeps the spawner
 * thread's thread pointer, so the first failing system call in the child
 * writes the spawner's errno behind its back.  Instead every such child
 * borrows the thread pointer of a donor: a real pthread that does nothing
 * but sleep until the run is over.  Its TLS is valid (stack protector
 * canary included) and nobody reads its errno.  It must outlive every
 * CLONE_VM child: the spawners reap them all before spawn_tls_donor_stop(). */
#include "spawn_tls.h"
#include "spawn_task.h"

#include <errno.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef __x86_64__
#include <asm/prctl.h>
#endif

static void *thread_pointer(void)
{
#ifdef __x86_64__
	unsigned long fs = 0;

	syscall(SYS_arch_prctl, ARCH_GET_FS, &fs);
	return (void *)fs;
#else
	return __builtin_thread_pointer();
#endif
}

static void *donor_main(void *arg)
{
	struct tls_donor *d = arg;

	prctl(PR_SET_NAME, "exitgen-tls", 0, 0, 0);
	atomic_store(&d->tp, (uintptr_t)thread_pointer());
	spawn_task_futex_wake_all((atomic_uint *)&d->quit);
	while (!atomic_load(&d->quit))
		spawn_task_futex_wait_ns(&d->quit, 0, 0);
	return NULL;
}

int spawn_tls_donor_start(struct tls_donor *d)
{
	int r;

	atomic_init(&d->quit, 0);
	atomic_init(&d->tp, 0);
	r = pthread_create(&d->thread, NULL, donor_main, d);
	if (r)
		return -r;
	d->running = true;
	/* Wait for the pointer; the wake on quit's word is only a nudge. */
	while (!atomic_load(&d->tp))
		spawn_task_futex_wait_ns(&d->quit, 0, 1000000);
	return 0;
}

void spawn_tls_donor_stop(struct tls_donor *d)
{
	if (!d->running)
		return;
	atomic_store(&d->quit, 1);
	spawn_task_futex_wake_all(&d->quit);
	pthread_join(d->thread, NULL);
	d->running = false;
}
