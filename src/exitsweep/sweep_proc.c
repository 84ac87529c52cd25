// SPDX-License-Identifier: GPL-2.0-or-later
/* Child process helpers. */
#include "sweep_proc.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sweep_signal.h"

#ifndef EXITSWEEP_SBINDIR		/* set by src/exitsweep/build.mk */
#define EXITSWEEP_SBINDIR "/usr/local/sbin"
#endif
const char sweep_proc_sbindir[] = EXITSWEEP_SBINDIR;

void sweep_proc_sleep(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	nanosleep(&ts, NULL);	/* an interrupt cuts it short: fine */
}

static bool executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

int sweep_proc_in_path(const char *name, char *out, size_t len)
{
	const char *env = getenv("PATH");
	char *path, *save = NULL;

	if (!env || !(path = strdup(env)))
		return -ENOENT;
	for (char *d = strtok_r(path, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if ((size_t)snprintf(out, len, "%s/%s", *d ? d : ".", name) < len &&
		    executable(out)) {
			free(path);
			return 0;
		}
	}
	free(path);
	return -ENOENT;
}

int sweep_proc_locate(const char *name, char *out, size_t len)
{
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			if ((size_t)snprintf(out, len, "%s/%s", self, name) < len &&
			    executable(out))
				return 0;
		}
	}
	/* exitmon and exitprobe install into sbin, often not on a user's PATH */
	if ((size_t)snprintf(out, len, "%s/%s", sweep_proc_sbindir, name) < len &&
	    executable(out))
		return 0;
	return sweep_proc_in_path(name, out, len);
}

static void block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* In a child just forked by parent: our handlers off, and SIGTERM when
 * exitsweep dies, however it dies (exitmon unregisters, exitgen reaps its
 * tasks); exit now if it already has. */
static void child_start(pid_t parent)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
	if (getppid() != parent)	/* it died before the line above */
		_exit(127);
}

static void redirect(const char *path, int target, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		_exit(127);
	if (fd != target) {
		dup2(fd, target);
		close(fd);
	}
}

pid_t sweep_proc_spawn(char *const argv[], const char *out_path, const char *err_path)
{
	pid_t self = getpid(), pid;
	sigset_t old;
	int e;

	block_signals(&old);	/* no interrupt between fork and registration */
	pid = fork();
	if (pid == 0) {
		child_start(self);
		sigprocmask(SIG_SETMASK, &old, NULL);
		redirect("/dev/null", 0, O_RDONLY);
		redirect(out_path ? out_path : "/dev/null", 1,
			 O_WRONLY | O_CREAT | O_TRUNC);
		if (err_path)
			redirect(err_path, 2, O_WRONLY | O_CREAT | O_TRUNC);
		execv(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	e = errno;
	if (pid > 0)
		sweep_signal_child_add(pid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid < 0 ? -e : pid;
}

int sweep_proc_wait(pid_t pid, int *status, struct rusage *ru, bool interruptible)
{
	struct rusage dummy;

	for (;;) {
		pid_t r;

		if (interruptible && (sweep_signal_interrupted || sweep_signal_alarm))
			return -EINTR;
		r = wait4(pid, status, 0, ru ? ru : &dummy);
		if (r == pid) {
			sweep_signal_child_remove(pid);
			return 0;
		}
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

int sweep_proc_poll(pid_t pid, int *status)
{
	pid_t r = waitpid(pid, status, WNOHANG);

	if (r == pid) {
		sweep_signal_child_remove(pid);
		return 1;
	}
	return r < 0 ? -errno : 0;
}

int sweep_proc_stop(pid_t pid, double grace, int *status)
{
	double end = mono_s() + grace;
	int r;

	kill(pid, SIGTERM);
	while ((r = sweep_proc_poll(pid, status)) == 0 && mono_s() < end)
		sweep_proc_sleep(0.005);
	if (r == 0) {
		kill(pid, SIGKILL);
		r = sweep_proc_wait(pid, status, NULL, false) == 0 ? 1 : -ECHILD;
	}
	return r < 0 ? r : 0;
}

/* The child of sweep_proc_capture: standard output into the pipe, the
 * rest to /dev/null. */
static _Noreturn void capture_exec(char *const argv[], int out, pid_t parent)
{
	int devnull = open("/dev/null", O_RDWR);

	child_start(parent);
	dup2(out, 1);
	if (devnull >= 0) {
		dup2(devnull, 0);
		dup2(devnull, 2);
	}
	execv(argv[0], argv);
	_exit(127);
}

/* Read fd to its end, keeping the first len - 1 bytes; buf ends at its
 * first newline. */
static void capture_read(int fd, char *buf, size_t len)
{
	size_t used = 0;

	for (;;) {
		ssize_t n = read(fd, buf + used, len - 1 - used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
		if (used == len - 1) {
			char sink[256];

			while (read(fd, sink, sizeof(sink)) > 0)
				;
			break;
		}
	}
	buf[used] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

int sweep_proc_capture(char *const argv[], char *buf, size_t len)
{
	int fds[2], status, r = 0;
	pid_t self, pid;

	if (len == 0)
		return -EINVAL;
	buf[0] = '\0';
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	self = getpid();
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(fds[0]);
		close(fds[1]);
		return r;
	}
	if (pid == 0)
		capture_exec(argv, fds[1], self);
	close(fds[1]);
	capture_read(fds[0], buf, len);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		r = -ECHILD;
	return r;
}

void sweep_proc_describe(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "wait status %#x", (unsigned)status);
}

void sweep_proc_last_line(const char *path, char *buf, size_t len)
{
	char line[1024];
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			snprintf(buf, len, "%s", line);
	}
	fclose(f);
}
