/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Start-up checks of the files named on the command line: no file named
 * twice (by device and inode, not by spelling), and every replaced file
 * (summary, metrics) writable by the user that will write it. */
#ifndef EXITMON_PATHS_H
#define EXITMON_PATHS_H

#include "mon_config.h"

/* 0, or EXIT_USAGE after one message naming the two options that name the
 * same regular file. */
int paths_distinct(const struct mon_config *cfg);
/* 0, or EXIT_OUTPUT after one message saying which file cannot be
 * replaced and why; run as the user that will write them. */
int paths_check_replaced(const struct mon_config *cfg);

#endif
