// SPDX-License-Identifier: GPL-2.0-or-later
/* The scratch directory and its watcher. */
#include "sweep_tmpdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "sweep_proc.h"

#define WATCH_TRIES 100		/* x 0.05 s: the children's last words */

static char dir[PATH_MAX];

/* Remove the files of path (it holds no directories), then path.  0 or
 * -errno (-ENOTEMPTY: a child wrote another file meanwhile). */
static int remove_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct dirent *e;
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(fd, e->d_name, 0);
	closedir(d);
	return rmdir(path) < 0 ? -errno : 0;
}

void sweep_tmpdir_remove(void)
{
	if (dir[0])
		remove_dir(dir);
	dir[0] = '\0';
}

/* The watcher: a read that ends only when every copy of the pipe's write
 * end is closed -- when exitsweep has exited, however it died.  Its
 * children (sent SIGTERM with it, see sweep_proc_spawn) may still be writing
 * their summaries: try for a few seconds. */
static _Noreturn void watch(int pipe_fd)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	int rfd = fcntl(pipe_fd, F_DUPFD_CLOEXEC, 3);	/* clear of 0-2 */
	char c;

	/* the group's Ctrl-C and hangup are for exitsweep, not for us */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_IGN);
	prctl(PR_SET_NAME, "exitsweep-tmp", 0, 0, 0);
	/* hold no one's terminal or pipe open: a reader of exitsweep's
	 * output sees its end when exitsweep ends */
	for (int fd = 0; fd < 3 && null >= 0; fd++)
		dup2(null, fd);
	if (rfd < 0 || (rfd != 3 && (rfd = dup2(rfd, 3)) < 0))
		_exit(1);
	closefrom(4);
	if (chdir("/") < 0)
		_exit(1);
	for (;;) {
		ssize_t n = read(rfd, &c, 1);

		if (n == 0)
			break;		/* exitsweep is gone */
		if (n < 0 && errno != EINTR)
			_exit(1);	/* cannot tell: leave the directory be */
	}
	for (int i = 0; i < WATCH_TRIES; i++) {
		int r = remove_dir(dir);

		if (r == 0 || r == -ENOENT)
			_exit(0);
		sweep_proc_sleep(0.05);
	}
	_exit(1);
}

/* Fork the watcher.  Our end of the pipe is never inherited by a program
 * we run (O_CLOEXEC) and stays open until we exit.  0 or -errno. */
static int start_watcher(void)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		watch(p[0]);
	}
	close(p[0]);
	if (pid < 0) {
		int e = errno;

		close(p[1]);
		return -e;
	}
	return 0;	/* p[1] stays open, deliberately, until we exit */
}

const char *sweep_tmpdir_make(void)
{
	const char *base = getenv("TMPDIR");
	int r;

	snprintf(dir, sizeof(dir), "%s/exitsweep.XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(dir)) {
		dir[0] = '\0';
		return NULL;
	}
	atexit(sweep_tmpdir_remove);
	if ((r = start_watcher()) < 0) {
		sweep_tmpdir_remove();
		errno = -r;
		return NULL;
	}
	return dir;
}
