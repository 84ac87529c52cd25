/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exitprobe around each overhead run: what taskstats_exit() cost inside
 * the kernel, and what the exits met (tgid accumulator, listeners).  The
 * summary keys are exitprobe's contract, include/probe_summary.h. */
#ifndef EXITSWEEP_SWEEP_PROBE_H
#define EXITSWEEP_SWEEP_PROBE_H

#include "kv.h"
#include "sweep.h"

/* "auto", "fentry", "sample", "off".  0 or -EINVAL. */
int sweep_probe_parse_mode(const char *s, enum sweep_probe *mode);
/* exitprobe's --method value for a mode ("auto" for PROBE_AUTO). */
const char *sweep_probe_method_arg(enum sweep_probe mode);
/* The unit of a summary's timed figures: its "unit" ("ns", or "instr"
 * under the instruction clock), "ns" when it has none (an exitprobe from
 * before the clock). */
const char *sweep_probe_unit(const struct kvmap *kv);
/* A run's probe summary into v[M_TS_NS_PER_EXIT], v[M_TGID_ON_SHARE],
 * v[M_LISTENER_SHARE], v[M_FOREIGN_EXITS] and the probe's own cost
 * v[M_PROBE_BPF_NS_PER_EXIT], v[M_PROBE_SAMPLES_PER_EXIT].  The per-exit
 * figure is the mode of the run's main class where the summary's
 * headline is the mode (fentry under the instruction clock), else the
 * mean.  unit is the sweep's own ("ns" or "instr"): 0; -EPROTO when the
 * summary's unit is another (a probe on another clock, or one too old to
 * say, under the instruction clock); -EBADMSG when it has no exit count
 * (the shares would mean nothing). */
int sweep_probe_apply(const struct kvmap *kv, const char *unit, double *v);
/* The probe's cost from blocks ABBA blocks of achieved rates: block b's
 * runs alone are alone[2b], alone[2b+1], under the probe probed[2b],
 * probed[2b+1]; its ratio is their sums' quotient.  Fills pc's blocks,
 * ratio (median), lo, hi and the median rates; 0, or -EINVAL for a rate
 * that is not a positive number or a block count out of range. */
int sweep_probe_cost_from(const double *alone, const double *probed,
			  unsigned blocks, struct sweep_probe_cost *pc);
/* One line: "a flat-out thread exit loop ran at 0.78 of its speed under
 * the probe (...)", or "not measured: why". */
void sweep_probe_cost_describe(const struct sweep_probe_cost *pc, char *buf,
			       size_t len);
/* "sample, period 100 us" from a summary, for the report's header. */
void sweep_probe_describe(const struct kvmap *kv, char *buf, size_t len);

#endif
