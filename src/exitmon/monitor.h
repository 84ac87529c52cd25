/* The collector's run: register, verify, receive until told to stop,
 * deregister, and report.  Used by exitmon's main(). */
#ifndef EXITMON_MONITOR_H
#define EXITMON_MONITOR_H

#include "mon_config.h"

/* Metrics are refreshed every --stats interval, or this often. */
#define DEFAULT_METRICS_S 10.0

void mon_install_signals(void);
/* Run the live collector; returns an exit status (enum exit_status). */
int mon_run(const struct mon_config *cfg);
/* Parse a capture file through the same pipeline; exit status. */
int mon_replay(const struct mon_config *cfg);

#endif
