/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How a task ended, from the kernel's ac_exitcode: the wait(2) status of
 * the task (exit_code in the kernel): the signal that killed it in the low
 * 7 bits, 0x80 when it dumped core, else the exit code in bits 8 to 15.
 * exitmon's metrics and exitstat's --signalled read it the same way. */
#ifndef COMMON_EXITCODE_H
#define COMMON_EXITCODE_H

#include <stdint.h>

enum exitcode_outcome {
	EXITCODE_EXIT0,		/* exit(0) or return from main */
	EXITCODE_NONZERO,	/* exit(n), n != 0 */
	EXITCODE_SIGNAL,	/* killed by a signal, no core dumped */
	EXITCODE_CORE,		/* killed by a signal, core dumped */
	EXITCODE__COUNT
};

/* The outcomes' names, as labels and words: exit0, nonzero, signal, core. */
extern const char *const exitcode_names[EXITCODE__COUNT];

/* The signal that ended the task (0: it exited). */
static inline unsigned exitcode_signal(uint64_t code)
{
	return (unsigned)(code & 0x7f);
}

enum exitcode_outcome exitcode_outcome(uint64_t code);

#endif
