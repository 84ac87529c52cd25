// SPDX-License-Identifier: GPL-2.0-or-later
/* The signals exitmon answers: SIGINT and SIGTERM stop it, SIGHUP reopens
 * the output, SIGUSR1 prints the counters; SIGPIPE is ignored. */
#include "mon_signal.h"

#include <string.h>

/* Signal flags, set by the handler, consumed by the loop. */
volatile sig_atomic_t mon_signal_stop, mon_signal_reopen, mon_signal_stats;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		mon_signal_reopen = 1;
	else if (sig == SIGUSR1)
		mon_signal_stats = 1;
	else
		mon_signal_stop = 1;
}

void mon_signal_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: waits end early */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);	/* a gone reader is a counted error */
}
