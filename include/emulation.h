/* Whether this machine is emulated, as tools/kernel-run says it is: it
 * exports EXITMON_EMULATED=tcg into a guest it cannot accelerate.  Timings
 * taken there prove a mechanism and are not comparable with native ones,
 * so every program that reports a timing says so. */
#ifndef COMMON_EMULATION_H
#define COMMON_EMULATION_H

/* The one sentence, with the emulator's name for %s. */
#define EMULATED_NOTE "timings are emulated (%s): they prove the mechanism " \
	"and are not comparable with native runs"

/* The emulator's name ("tcg"), or NULL on a native or accelerated
 * machine.  Only a short plain word is taken from the environment. */
const char *emulation_name(void);

#endif
