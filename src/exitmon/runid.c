// SPDX-License-Identifier: GPL-2.0-or-later
/* The run id: --run-id, systemd's invocation id, or random. */
#include "runid.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "parse.h"

bool runid_parse(const char *s, size_t n, char out[REC_RUN_HEX])
{
	char v[REC_RUN_HEX];
	size_t i;

	if (!s || n != REC_RUN_HEX)
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'F')
			c = (char)(c - 'A' + 'a');
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return false;
		v[i] = c;
	}
	if (out)
		memcpy(out, v, REC_RUN_HEX);
	return true;
}

/* systemd started this process itself (not one of its children). */
static bool started_by_systemd(void)
{
	const char *pid = getenv("SYSTEMD_EXEC_PID");
	uint64_t v;

	return pid && parse_u64(pid, 1, UINT64_MAX, &v) == 0 &&
	       v == (uint64_t)getpid();
}

int runid_make(const char *fixed, bool systemd, char out[REC_RUN_HEX + 1],
	       enum runid_source *src)
{
	const char *inv = getenv("INVOCATION_ID");
	int r;

	out[REC_RUN_HEX] = '\0';
	if (fixed && runid_parse(fixed, strlen(fixed), out)) {
		*src = RUNID_OPTION;
		return 0;
	}
	if (systemd && inv && started_by_systemd()) {
		if (runid_parse(inv, strlen(inv), out)) {
			*src = RUNID_SYSTEMD;
			return 0;
		}
		log_warn("INVOCATION_ID is not 32 hex digits: the run id is "
			"random instead");
	}
	*src = RUNID_RANDOM;
	if ((r = record_run_random(out)) < 0)
		return r;
	return 0;
}
