/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exitmon --replay: a capture file through the collector's pipeline. */
#ifndef EXITMON_MON_REPLAY_H
#define EXITMON_MON_REPLAY_H

#include "mon_config.h"

/* Parse a capture file through the same pipeline; exit status. */
int mon_replay(const struct mon_config *cfg);

#endif
