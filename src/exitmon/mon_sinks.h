/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The collector's files, for start-up and --replay alike. */
#ifndef EXITMON_MON_SINKS_H
#define EXITMON_MON_SINKS_H

#include "mon_state.h"

/* Every file, checked and opened (also replay's); 0 or an exit status. */
int mon_sinks_open(struct mon *m);
/* A start that failed leaves no file it created behind. */
void mon_sinks_remove_created(struct mon *m);

#endif
