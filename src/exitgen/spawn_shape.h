/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Task slots and the four shapes (spawn_shape.c): how a task is made,
 * released, reaped. */
#ifndef EXITGEN_SPAWN_SHAPE_H
#define EXITGEN_SPAWN_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "spawn_config.h"
#include "spawn_task.h"

struct slots {
	struct task_ctl *ctl;
	size_t ctl_bytes;
	char *stacks;
	size_t stack_bytes;
	size_t per_slot;	/* stack bytes one slot owns */
	unsigned n;
};

int spawn_shape_slots_init(struct slots *s, unsigned n,
			   enum spawn_shape shape, const struct task_plan *plan);
void spawn_shape_slots_fini(struct slots *s);
int spawn_shape_create(enum spawn_shape shape, struct task_ctl *c);
int spawn_shape_wait_ready(enum spawn_shape shape, struct task_ctl *c);
int spawn_shape_release(enum spawn_shape shape, enum spawn_exit_by by,
			struct task_ctl *c);
int spawn_shape_reap(enum spawn_shape shape, struct task_ctl *c);
/* Thread shape: 0 when joined, -EBUSY while it runs. */
int spawn_shape_try_join(struct task_ctl *c);
/* Other shapes: a child of this thread that has ended (pid), 0 if none
 * has yet (block false), -errno. */
pid_t spawn_shape_reap_any(bool block);

#endif
