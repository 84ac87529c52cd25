/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine a sweep ran on, recorded in every result file: results are
 * only worth keeping if they say which kernel and hardware made them. */
#ifndef EXITSWEEP_SWEEP_MACHINE_H
#define EXITSWEEP_SWEEP_MACHINE_H

#include <stddef.h>

struct sweep_machine {
	char hostname[128];
	char kernel[128];		/* uname -r */
	char kernel_build[256];		/* uname -v */
	char arch[72];			/* uname -m */
	char cpu_model[160];
	long cpus;			/* online */
	char cpus_possible[64];		/* /sys/devices/system/cpu/possible */
	int struct_version;		/* taskstats version, 0 unknown */
	int delayacct;			/* kernel.task_delayacct at start, -1 unknown */
	/* "NAME VERSION" as `NAME --version` prints it, all three alike */
	char exitmon_version[96];
	char exitgen_version[96];
	char exitsweep_version[32];
	char exitprobe_version[96];	/* "" when the probe is off */
	char started[32];		/* UTC, ISO 8601 */
	/* How the machine runs, when it is emulated: EXITMON_EMULATED as
	 * tools/kernel-run sets it ("tcg"), "" on a real or accelerated
	 * machine.  Emulated timings are not comparable with native ones. */
	char emulated[32];
};

#include "emulation.h"	/* EMULATED_NOTE, for reports and comparisons */


/* Everything that can be read without running a program. */
void sweep_machine_collect(struct sweep_machine *m);
/* "exitmon 0.1.0" from `path --version`, or "unknown". */
void sweep_machine_prog_version(const char *path, char *buf, size_t len);
/* The first "model name" (or "Hardware"/"cpu model") line of a
 * /proc/cpuinfo-style file, or "unknown". */
void sweep_machine_cpu_model(const char *cpuinfo, char *buf, size_t len);

#endif
