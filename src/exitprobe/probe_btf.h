/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where this CPU's taskstats listener list is.  listener_array is a
 * static per-CPU variable: without CONFIG_KALLSYMS_ALL it has no symbol
 * address, but the kernel's BTF lists every per-CPU variable with its
 * offset in the per-CPU section (DATASEC ".data..percpu").  Two per-CPU
 * variables of one CPU lie at the same distance on every CPU, and the BPF
 * program can reach one of them, the CPU's runqueue, from the current
 * task (se.cfs_rq->rq).  So: listener list = runqueue + (offset of
 * listener_array - offset of runqueues). */
#ifndef EXITPROBE_PROBE_BTF_H
#define EXITPROBE_PROBE_BTF_H

#include <stdint.h>

/* The running kernel's: &listener_array - &runqueues.  0 or -errno. */
int probe_btf_listener_delta(int64_t *delta);

#endif
