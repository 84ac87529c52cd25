/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The collector's start-up. */
#ifndef EXITMON_MON_START_H
#define EXITMON_MON_START_H

#include "mon_state.h"

/* Open the shards, drop privileges, open the sinks, register, self-check,
 * start the receive threads, write the pid file: 0, or the exit status of
 * the first failure (already reported in one line). */
int mon_start(struct mon *m);

#endif
