/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel function address ranges from /proc/kallsyms: taskstats_exit()
 * and the functions it calls, each mapped to a probe_callee.  A range ends
 * where the next text symbol starts. */
#ifndef EXITPROBE_PROBE_KSYMS_H
#define EXITPROBE_PROBE_KSYMS_H

#include <linux/types.h>
#include <stdio.h>

#include "probe_abi.h"

/* Fill out[0] with taskstats_exit and out[1..] with the callees found
 * (at most PROBE_MAX_RANGES in all).  0, -ENOENT when taskstats_exit is
 * not listed, -EPERM when every address reads as 0 (kptr_restrict: not
 * root), -ENOMEM. */
int probe_ksyms_ranges(FILE *kallsyms, struct probe_range *out, __u32 *n);

/* The symbol name of a callee class, for reports. */
const char *probe_ksyms_callee_name(unsigned callee);

#endif
