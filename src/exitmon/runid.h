/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run id every record carries in its run column: 128 bits, written as
 * REC_RUN_HEX lowercase hex digits, new for every start of the collector
 * (live or --replay), so that (run, seq) names one record for good. */
#ifndef EXITMON_RUNID_H
#define EXITMON_RUNID_H

#include <stdbool.h>
#include <stddef.h>

#include "record.h"

/* Whether s (n bytes) is REC_RUN_HEX hex digits, either case; into out as
 * lowercase (out may be NULL). */
bool runid_parse(const char *s, size_t n, char out[REC_RUN_HEX]);

/* Where a run id came from, for the start-up message and the tests. */
enum runid_source { RUNID_OPTION, RUNID_SYSTEMD, RUNID_RANDOM };

/* The run id, into out (REC_RUN_HEX digits and a NUL):
 * - fixed (--run-id), already checked with runid_parse, when not NULL;
 * - else, for a live collector (systemd true), $INVOCATION_ID when systemd
 *   started this very process: $SYSTEMD_EXEC_PID is our pid (a process a
 *   service's process started inherits INVOCATION_ID, and two of those
 *   would share it) and the id is 32 hex digits (else a warning);
 * - else 16 bytes of getrandom().
 * 0, or -errno when no random bytes could be had. */
int runid_make(const char *fixed, bool systemd, char out[REC_RUN_HEX + 1],
	       enum runid_source *src);

#endif
