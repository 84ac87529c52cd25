// SPDX-License-Identifier: GPL-2.0-or-later
/* The classic lifecycle setting: idle background children that live for
 * the whole run, and a shared file mapping touched before any task is
 * made (fork must then deal with a large address space). */
#include "spawn_bg.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "safe.h"

/* Idle until killed; gone with us even if we are killed first. */
static _Noreturn void bg_child(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent)
		_exit(0);
	prctl(PR_SET_NAME, "exitgen-bg", 0, 0, 0);
	for (;;)
		pause();	/* every signal is blocked: only SIGKILL ends it */
}

int spawn_bg_start(uint64_t n, pid_t **pids, uint64_t *made)
{
	pid_t parent = getpid();
	int r = 0;

	*made = 0;
	*pids = calloc(n ? n : 1, sizeof(**pids));
	if (!*pids)
		return -ENOMEM;
	for (uint64_t i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			r = -errno;
			break;
		}
		if (pid == 0)
			bg_child(parent);
		(*pids)[(*made)++] = pid;
	}
	return r;
}

/* Kill them all, then reap them all: the time is the cost of both. */
double spawn_bg_stop(pid_t *pids, uint64_t n)
{
	double t0 = mono_s();

	for (uint64_t i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (uint64_t i = 0; i < n; i++)
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	return mono_s() - t0;
}

static int open_backing(const char *path)
{
	char tmpl[] = "/tmp/exitgen-mmap-XXXXXX";
	int fd;

	bool created;

	if (path)	/* the one safe open: no planted link followed */
		return safe_open(path, O_RDWR | O_CREAT, 0600, &created);
	fd = mkostemp(tmpl, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fd >= 0)
		unlink(tmpl);	/* gone when we are */
	return fd;
}

int spawn_bg_map_touch(uint64_t bytes, const char *path, void **addr)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open_backing(path);
	int r = 0;
	char *p;

	if (fd < 0)
		return fd;
	if (ftruncate(fd, (off_t)bytes) < 0) {
		r = -errno;
		goto out;
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		r = -errno;
		goto out;
	}
	for (uint64_t off = 0; off < bytes; off += (uint64_t)page)
		p[off] = 1;
	*addr = p;
out:
	close(fd);
	return r;
}

void spawn_bg_map_release(void *addr, uint64_t bytes)
{
	if (addr)
		munmap(addr, bytes);
}
