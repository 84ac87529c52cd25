/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU time of the whole machine from /proc/stat, and the kernel's tick
 * rate: machine_cpu_us_per_exit takes in what exitgen's getrusage cannot
 * see (the collector, softirq work, the other CPU), and the tick rate says
 * how finely getrusage's user/sys split is sampled. */
#ifndef EXITSWEEP_SWEEP_CPU_H
#define EXITSWEEP_SWEEP_CPU_H

#include <stddef.h>
#include <stdint.h>

/* Busy time of all CPUs, in USER_HZ ticks (the unit of /proc/stat). */
struct sweep_cpu_sample {
	uint64_t busy;		/* user+nice+system+irq+softirq+steal */
	uint64_t idle;		/* idle+iowait: nothing ran */
};

/* Parse the aggregate "cpu " line of /proc/stat text.  0 or -EBADMSG. */
int sweep_cpu_parse_stat(const char *text, struct sweep_cpu_sample *s);
/* Read /proc/stat now.  0 or -errno. */
int sweep_cpu_read(struct sweep_cpu_sample *s);
/* Busy seconds between two samples (NAN when b is before a). */
double sweep_cpu_busy_s(const struct sweep_cpu_sample *a,
			const struct sweep_cpu_sample *b);

/* "CONFIG_HZ=250" in kernel config text: 250, else 0. */
long sweep_cpu_parse_config_hz(const char *text);
/* The kernel's tick rate: CONFIG_HZ from /boot/config-RELEASE or
 * /proc/config.gz, else USER_HZ (sysconf(_SC_CLK_TCK)), which is never
 * above it and so errs toward warning.  how says which ("CONFIG_HZ from
 * /proc/config.gz"). */
long sweep_cpu_kernel_hz(char *how, size_t len);

#endif
