// SPDX-License-Identifier: GPL-2.0-or-later
/* How a task ended, from its wait status (exitcode.h). */
#include "exitcode.h"

const char *const exitcode_names[EXITCODE__COUNT] = {
	[EXITCODE_EXIT0] = "exit0",
	[EXITCODE_NONZERO] = "nonzero",
	[EXITCODE_SIGNAL] = "signal",
	[EXITCODE_CORE] = "core",
};

/* The kernel's exit_code: do_exit((n & 0xff) << 8) for exit(n); the
 * signal number for a fatal signal, with 0x80 added by the core dump's
 * end (coredump_finish) when a core was written. */
enum exitcode_outcome exitcode_outcome(uint64_t code)
{
	if (exitcode_signal(code))
		return code & 0x80 ? EXITCODE_CORE : EXITCODE_SIGNAL;
	return (code >> 8) & 0xff ? EXITCODE_NONZERO : EXITCODE_EXIT0;
}
