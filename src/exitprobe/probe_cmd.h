/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running COMMAND under the probe: it is forked first and held until the
 * probe tracks its pid, so not one of its exits is missed; then it execs.
 * While it runs exitprobe ignores SIGINT and SIGQUIT (the terminal sends
 * them to the command too) and passes every other signal that asks to stop
 * (stopsig.h: SIGTERM, SIGHUP, SIGUSR1, ...) on to it. */
#ifndef EXITPROBE_PROBE_CMD_H
#define EXITPROBE_PROBE_CMD_H

#include <sys/types.h>

struct probe_cmd {
	pid_t pid;
	int go_fd;	/* write end: one byte releases the child */
	int err_fd;	/* read end: the child's exec errno, EOF on success */
};

/* Fork the child, held before exec.  0 or -errno. */
int probe_cmd_spawn(struct probe_cmd *c, char *const argv[]);
/* Release it; 0, or the exec's -errno (the child has then exited). */
int probe_cmd_release(struct probe_cmd *c);
/* Kill and reap a child that was never released. */
void probe_cmd_abort(struct probe_cmd *c);
/* Wait for the command; its wait status. */
int probe_cmd_wait(struct probe_cmd *c, int *status);
/* Without blocking: 1 and its status when it has ended, 0 while it runs,
 * or -errno. */
int probe_cmd_poll(struct probe_cmd *c, int *status);
/* Exit status to pass on: the command's, 128 + N for signal N, and for
 * an exec failure 127 (not found) or 126 (not runnable). */
int probe_cmd_exit_code(int wstatus);

#endif
