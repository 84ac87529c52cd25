// SPDX-License-Identifier: GPL-2.0-or-later
/* The one list of the signals that ask a program to stop. */
#include "stopsig.h"

#include <stdbool.h>
#include <stddef.h>

/* Ignored by whoever started us: their wish, kept. */
static bool ignored(int sig)
{
	struct sigaction sa;

	return sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN;
}

static void add(sigset_t *set, int sig)
{
	if (sig == SIGINT || sig == SIGTERM || !ignored(sig))
		sigaddset(set, sig);
}

void stopsig_fill(sigset_t *set)
{
	static const int named[] = {
		SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM,
		SIGTERM, SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
		SIGIO, SIGPWR,
	};

	sigemptyset(set);
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		add(set, named[i]);
	/* glibc keeps the first real-time signals for itself and moves
	 * SIGRTMIN past them: the rest are anybody's to send. */
	for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
		add(set, s);
}
