// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stopsig.h"

static volatile sig_atomic_t child_pid;

static void forward(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

static void child_run(int go, int err, char *const argv[])
{
	char b;
	int e;

	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	if (read(go, &b, 1) != 1)
		_exit(127);	/* exitprobe went away: never run */
	execvp(argv[0], argv);
	e = errno;
	if (write(err, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(e == ENOENT ? 127 : 126);
}

/* Every signal that asks to stop goes to the command, which decides; none
 * ends exitprobe before its report.  SIGINT and SIGQUIT come from the
 * terminal, which sends them to the command too. */
static void handle_signals(void)
{
	struct sigaction sa = { .sa_handler = forward, .sa_flags = SA_RESTART };
	sigset_t stop;

	stopsig_fill(&stop);
	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&stop, sig) == 1 && sig != SIGINT &&
		    sig != SIGQUIT)
			sigaction(sig, &sa, NULL);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
}

int probe_cmd_spawn(struct probe_cmd *c, char *const argv[])
{
	int go[2], err[2];

	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err, O_CLOEXEC) < 0) {
		int e = -errno;

		close(go[0]);
		close(go[1]);
		return e;
	}
	c->pid = fork();
	if (c->pid == 0)
		child_run(go[0], err[1], argv);
	close(go[0]);
	close(err[1]);
	c->go_fd = go[1];
	c->err_fd = err[0];
	if (c->pid < 0) {
		int e = -errno;

		close(go[1]);
		close(err[0]);
		return e;
	}
	child_pid = c->pid;
	handle_signals();
	return 0;
}

int probe_cmd_release(struct probe_cmd *c)
{
	int e = 0;
	ssize_t n;

	n = write(c->go_fd, "g", 1);
	close(c->go_fd);
	c->go_fd = -1;
	if (n != 1)
		return -EPIPE;
	do
		n = read(c->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->err_fd);
	c->err_fd = -1;
	return n == sizeof(e) ? -e : 0;
}

void probe_cmd_abort(struct probe_cmd *c)
{
	int st;

	close(c->go_fd);	/* EOF: the child exits without exec */
	close(c->err_fd);
	kill(c->pid, SIGKILL);
	while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
}

int probe_cmd_wait(struct probe_cmd *c, int *status)
{
	pid_t r;

	while ((r = waitpid(c->pid, status, 0)) < 0 && errno == EINTR)
		;
	child_pid = 0;
	return r < 0 ? -errno : 0;
}

int probe_cmd_poll(struct probe_cmd *c, int *status)
{
	pid_t r = waitpid(c->pid, status, WNOHANG);

	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	if (r == 0)
		return 0;
	child_pid = 0;
	return 1;
}

int probe_cmd_exit_code(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}
