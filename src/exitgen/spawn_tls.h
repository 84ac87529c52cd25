/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A thread pointer lent to CLONE_VM children (spawn_tls.c). */
#ifndef EXITGEN_SPAWN_TLS_H
#define EXITGEN_SPAWN_TLS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

struct tls_donor {
	pthread_t thread;
	atomic_uint quit;
	atomic_uintptr_t tp;
	bool running;
};

int spawn_tls_donor_start(struct tls_donor *d);
void spawn_tls_donor_stop(struct tls_donor *d);

#endif
