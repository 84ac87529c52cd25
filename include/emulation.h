/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether this machine is emulated, as tools/kernel-run says it is: it
 * exports EXITMON_EMULATED=tcg into a guest it cannot accelerate.  Timings
 * taken there prove a mechanism and are not comparable with native ones,
 * so every program that reports a timing says so. */
#ifndef COMMON_EMULATION_H
#define COMMON_EMULATION_H

#include <stdbool.h>

/* The one sentence, with the emulator's name for %s. */
#define EMULATED_NOTE "timings are emulated (%s): they prove the mechanism " \
	"and are not comparable with native runs"

/* The emulator's name ("tcg"), or NULL on a native or accelerated
 * machine.  Only a short plain word is taken from the environment. */
const char *emulation_name(void);

/* Whether the clock counts guest instructions: tools/kernel-run --clock
 * instructions (QEMU's TCG with -icount shift=0) advances every clock of
 * the guest by one ns per instruction and exports EXITMON_CLOCK=
 * instructions.  Every figure a program would print in ns (or us) is then
 * a count of instructions and must be labelled so: see emulation_unit(). */
bool emulation_counts_instructions(void);

/* The unit of a figure measured in ns: "ns", or "instr" under the
 * instruction clock.  Scaled units (us, ms) have no instruction meaning:
 * a program under the instruction clock prints plain counts. */
const char *emulation_unit(void);

#endif
