/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Background children and the shared mapping (spawn_bg.c). */
#ifndef EXITGEN_SPAWN_BG_H
#define EXITGEN_SPAWN_BG_H

#include <stdint.h>
#include <sys/types.h>

/* Fork n idle children; *pids (the caller frees it) holds the *made that
 * were made.  0, or -errno of the fork that failed. */
int spawn_bg_start(uint64_t n, pid_t **pids, uint64_t *made);
/* Kill and reap them; returns the seconds that took. */
double spawn_bg_stop(pid_t *pids, uint64_t n);
/* Map bytes of path (NULL: an unlinked temporary file) shared at *addr
 * and touch every page.  0 or -errno. */
int spawn_bg_map_touch(uint64_t bytes, const char *path, void **addr);
void spawn_bg_map_release(void *addr, uint64_t bytes);

#endif
