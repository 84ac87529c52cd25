/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The collector's run: register, verify, receive until told to stop,
 * deregister, and report.  Used by exitmon's main(). */
#ifndef EXITMON_MON_RUN_H
#define EXITMON_MON_RUN_H

#include "mon_config.h"

/* Run the live collector; returns an exit status (enum exit_status). */
int mon_run(const struct mon_config *cfg);

#endif
