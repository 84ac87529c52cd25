/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The pid file: created and locked (flock) at start-up for the life of the
 * process, so a second instance is refused instead of taking it over; the
 * pid is written once records flow; removed at exit. */
#ifndef EXITMON_PIDFILE_H
#define EXITMON_PIDFILE_H

#include <stdbool.h>
#include <sys/types.h>

struct pidfile {
	const char *path;
	int fd;			/* -1: none */
	dev_t dev;
	ino_t ino;
};

/* Open and lock path (symlink-safe, 0644 minus the umask).  0; -EAGAIN
 * when another process holds it (*holder: the pid it wrote, or 0); or
 * -errno. */
int pidfile_lock(struct pidfile *p, const char *path, long *holder);
/* Write our pid into the locked file.  0 or -errno. */
int pidfile_write(struct pidfile *p);
/* Remove the file if it is still ours, and let the lock go. */
void pidfile_release(struct pidfile *p);

#endif
