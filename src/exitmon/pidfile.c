// SPDX-License-Identifier: GPL-2.0-or-later
/* The pid file, locked for the life of the process. */
#include "pidfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe.h"

/* The pid a live holder wrote, or 0 while it has not written one yet. */
static long read_holder(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, NULL, 10);
	return pid > 0 ? pid : 0;
}

/* Does path still name the file we locked?  A holder that exited may have
 * removed it between our open and our lock. */
static bool still_named(const struct pidfile *p)
{
	char base[NAME_MAX + 1];
	struct stat st;
	int dir = safe_parent(p->path, base);
	bool same;

	if (dir < 0)
		return false;
	same = fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       st.st_dev == p->dev && st.st_ino == p->ino;
	close(dir);
	return same;
}

static int try_lock(struct pidfile *p, long *holder)
{
	struct stat st;
	bool created;

	p->fd = safe_open(p->path, O_RDWR | O_CREAT, SAFE_MODE_PUBLIC, &created);
	if (p->fd < 0)
		return p->fd;
	if (flock(p->fd, LOCK_EX | LOCK_NB) < 0) {
		int r = errno == EWOULDBLOCK ? -EAGAIN : -errno;

		*holder = read_holder(p->fd);
		return r;
	}
	if (fstat(p->fd, &st) < 0)
		return -errno;
	p->dev = st.st_dev;
	p->ino = st.st_ino;
	return still_named(p) ? 0 : -ESTALE;
}

int pidfile_lock(struct pidfile *p, const char *path, long *holder)
{
	int i, r = -ESTALE;

	p->path = path;
	p->fd = -1;
	*holder = 0;
	for (i = 0; i < 5 && r == -ESTALE; i++) {
		if (p->fd >= 0)
			close(p->fd);
		r = try_lock(p, holder);
	}
	if (r == 0 && ftruncate(p->fd, 0) < 0)	/* a stale pid goes */
		r = -errno;
	if (r < 0 && p->fd >= 0) {
		close(p->fd);
		p->fd = -1;
	}
	return r;
}

int pidfile_write(struct pidfile *p)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());

	if (pwrite(p->fd, buf, (size_t)n, 0) != n)
		return errno ? -errno : -EIO;
	return 0;
}

void pidfile_release(struct pidfile *p)
{
	if (p->fd < 0)
		return;
	safe_unlink_same(p->path, p->dev, p->ino);	/* still locked */
	close(p->fd);
	p->fd = -1;
}
