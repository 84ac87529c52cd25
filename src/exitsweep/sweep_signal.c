// SPDX-License-Identifier: GPL-2.0-or-later
/* Signal handling for the sweep. */
#include "sweep_signal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep_sysctl.h"

volatile sig_atomic_t sweep_signal_interrupted;
volatile sig_atomic_t sweep_signal_alarm;

#define MAX_CHILDREN 4
static volatile sig_atomic_t children[MAX_CHILDREN];

static void on_signal(int sig)
{
	if (sweep_signal_interrupted) {
		/* Second signal: no more patience. */
		sweep_sysctl_restore_from_signal();
		for (int i = 0; i < MAX_CHILDREN; i++)
			if (children[i] > 0)
				kill((pid_t)children[i], SIGKILL);
		_exit(128 + sig);
	}
	sweep_signal_interrupted = sig;
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] > 0)
			kill((pid_t)children[i], SIGTERM);
}

static void on_alarm(int sig)
{
	(void)sig;
	sweep_signal_alarm = 1;
}

void sweep_signal_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	sa.sa_handler = on_signal;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
}

void sweep_signal_child_add(pid_t pid)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == 0) {
			children[i] = pid;
			return;
		}
}

void sweep_signal_child_remove(pid_t pid)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == pid)
			children[i] = 0;
}

void sweep_signal_reraise(void)
{
	int sig = sweep_signal_interrupted ? sweep_signal_interrupted : SIGTERM;
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}
